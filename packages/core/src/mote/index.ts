export { Mote } from "./mote";
export { CardFiles } from "./files";
