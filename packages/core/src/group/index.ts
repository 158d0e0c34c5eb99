export { Group } from "./group";
