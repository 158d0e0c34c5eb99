export { Keypair } from "./keypair";
export { Backup } from "./backup";
export type { KeypairItem } from "./entities";
