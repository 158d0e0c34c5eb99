import type { OpenedRecord } from "./open-records";

/** An opened record for unit tests: a plain card (type 0) by author 3 unless `more` says otherwise. */
export function openedRecord(id: number, payload: OpenedRecord["payload"], more: Partial<OpenedRecord> = {}): OpenedRecord {
  return {
    id,
    recordId: `r${id}`,
    groupId: 1,
    pageId: 2,
    typeId: 0,
    authorId: 3,
    timestamp: 0,
    modified: 0,
    relationships: [],
    comments: 0,
    editable: true,
    epoch: 0,
    payload,
    ...more,
  };
}
