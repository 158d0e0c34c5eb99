export { RateLimit } from "./rate-limit";
