import { Group, Text } from "@mantine/core";
import { useDraggable, useDroppable } from "@dnd-kit/core";
import type { RenderTreeNodePayload } from "@mantine/core";
import { Icon } from "../../../lib/ui/icons";
import { LockIcon } from "../menu/page-icons";
import type { DriveNode } from "./drive-tree";
import { DriveThumb, hasThumbnail } from "./drive-thumb";

const ICONS = {
  drive: <path d="M3 7h18v10H3zM7 12h.01M11 12h6" />,
  folder: <path d="M3 6h6l2 2h10v11H3z" />,
  file: <path d="M6 3h8l4 4v14H6zM14 3v4h4" />,
};

export const ItemIcon = ({ kind }: { kind: DriveNode["kind"] }) => (
  <Icon size={18} aria-hidden>
    {ICONS[kind]}
  </Icon>
);

/**
 * One item of the drive's tree: drives and folders take drops, folders and files can be dragged
 * (spec 001 §4: only files and folders drag; drives never move). `draggable` is off while moves cannot be
 * made (a read-only page, a rekey pending).
 */
export function DriveRow({
  groupId,
  payload: { expanded, hasChildren, elementProps },
  item,
  label,
  selected,
  hit,
  draggable,
  padlock,
  onSelect,
}: {
  groupId: number;
  payload: RenderTreeNodePayload;
  item: DriveNode;
  label: string;
  selected: boolean;
  hit: boolean;
  draggable: boolean;
  /** The label of the padlock shown on an item that has grants. */
  padlock: string;
  onSelect: () => void;
}) {
  const id = String(item.id);
  const drag = useDraggable({ id, disabled: !draggable || item.kind === "drive" });
  const drop = useDroppable({ id, disabled: item.kind === "file" });
  const background = drop.isOver && !drag.isDragging ? "var(--mantine-color-green-light)" : selected ? "var(--mantine-color-blue-light)" : undefined;
  return (
    <Group
      gap={6}
      wrap="nowrap"
      {...elementProps}
      ref={(element: HTMLElement | null) => {
        drag.setNodeRef(element);
        drop.setNodeRef(element);
      }}
      {...drag.listeners}
      onClick={(event) => {
        elementProps.onClick(event);
        onSelect();
      }}
      data-drive-item={item.name ?? ""}
      data-kind={item.kind}
      data-chosen={selected || undefined}
      data-drop-target={drop.isOver || undefined}
      style={{ ...elementProps.style, cursor: "pointer", padding: "2px 4px", borderRadius: 4, background, opacity: drag.isDragging ? 0.5 : undefined, touchAction: "none" }}
    >
      <Text span c="dimmed" w={12} aria-hidden>
        {hasChildren ? (expanded ? "▾" : "▸") : ""}
      </Text>
      {hasThumbnail(item.file) ? <DriveThumb groupId={groupId} file={item.file} size={20} decorative fallback={<ItemIcon kind={item.kind} />} /> : <ItemIcon kind={item.kind} />}
      <Text span fw={hit ? 700 : undefined} c={item.name === null ? "red" : undefined} style={{ overflowWrap: "anywhere" }}>
        {label}
      </Text>
      {item.hasGrants ? <LockIcon size={14} aria-label={padlock} role="img" data-padlock /> : null}
    </Group>
  );
}
