/**
 * Every domain's entities and error texts, registered (db/registry.ts, registerErrors in
 * errors.ts): for what serves or reads every domain at once, the local runtime (through the core's
 * index.ts) and the tests. A Lambda never imports this: each of its modules imports the
 * registrations it uses, so that its bundle carries only those (test/unit/registrations.test.ts).
 */
import "./conversation/entities";
import "./conversation/errors";
import "./drive/entities";
import "./drive/errors";
import "./group/entities";
import "./group/errors";
import "./identity/entities";
import "./identity/errors";
import "./instance/errors";
import "./invite/entities";
import "./invite/errors";
import "./keys/entities";
import "./keys/errors";
import "./mote/entities";
import "./mote/errors";
import "./pickup/entities";
import "./pickup/errors";
import "./rate-limit/entities";
import "./sweep/entities";
import "./totp/errors";
import "./user/entities";
import "./user/errors";
import "./verification/entities";
