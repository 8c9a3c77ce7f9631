export * from './response';
export * from './speakers';
