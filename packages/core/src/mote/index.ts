export { Mote } from "./mote";
export { MoteComments } from "./comments";
export { CardFiles } from "./files";
