import { Avatar, Group, Stack, Text, Tooltip } from "@mantine/core";
import { useInstance } from "../../lib/instance";
import { useRequiredSession } from "../../lib/session";

/** Name, instance and an avatar of initials; only the avatar when the menu is narrow. */
export function UserBlock({ maximised }: { maximised: boolean }) {
  const session = useRequiredSession();
  const { data: instance, title } = useInstance();
  const instanceName = instance?.name || title;
  const avatar = <Avatar name={session.name} color="initials" radius="xl" aria-hidden="true" />;

  if (!maximised) {
    return (
      <Tooltip label={`${session.name} · ${instanceName}`} position="right" withArrow>
        {avatar}
      </Tooltip>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" data-testid="user-block">
      {avatar}
      <Stack gap={0} miw={0}>
        <Text size="sm" fw={600} truncate>
          {session.name}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {instanceName}
        </Text>
      </Stack>
    </Group>
  );
}
