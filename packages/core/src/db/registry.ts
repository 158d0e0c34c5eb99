import type { Entity } from "electrodb";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any entity of the table
type AnyEntity = Entity<any, any, any, any>;

const registered: Record<string, AnyEntity> = {};
let registrations = 0;

/**
 * Each domain's entities.ts hands its item kinds to the db module here when it is imported, so
 * that `db()` (db/service.ts) serves the entities of the domains a bundle imports and no others:
 * an area's Lambda carries only the entities its routes reach. Returns `entities`, typed as given.
 */
export function registerEntities<const M extends Record<string, AnyEntity>>(entities: M): M {
  Object.assign(registered, entities);
  registrations++;
  return entities;
}

/** How many registrations there were so far: db() builds its service again when it changes. */
export function registrationCount(): number {
  return registrations;
}

/** The entities registered so far. */
export function registeredEntities(): Record<string, AnyEntity> {
  return { ...registered };
}
