import type { FileRef } from "@sealwork/crypto";
import { type ComponentType, createContext, useContext } from "react";

/**
 * 'Select from drive...' (spec 000 §2) as a port: the conversations' message bar asks for a file
 * of one of the user's group drives without knowing groups (features reach each other one way);
 * the app shell provides the groups feature's picker.
 */
export interface PickedDriveFile {
  group: number;
  file: FileRef;
}

export type DrivePicker = ComponentType<{ onPick: (picked: PickedDriveFile) => void; onClose: () => void }>;

export const DrivePickerContext = createContext<DrivePicker | null>(null);

export const useDrivePicker = (): DrivePicker | null => useContext(DrivePickerContext);
