/** The versions this client reports on the About page (spec 000 section 1). */
export const CLIENT_VERSION = "2.0.0";
export const API_VERSION = "0.5";
