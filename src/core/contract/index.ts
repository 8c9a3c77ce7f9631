export * from './endpoints';
export * from './errors';
export * from './fields';
export * from './languages';
export * from './parse-request';
export * from './request';
export * from './response';
