declare module "s3rver" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs: (string | Buffer)[] }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
    /** Creates the buckets of `configureBuckets` (and applies their configs) without listening. */
    configureBuckets(): Promise<void>;
    /** The request handler (s3rver is a Koa app), for serving it from a server of one's own. */
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
