import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export function modelFolderHandler(
  root: string,
  base?: string,
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
export function startModelHost(root: string, port?: number): Promise<Server>;
