export { Mote } from "./mote";
