import { CONSOLE_PATH } from "~/features/staff/roles";

/**
 * The room a console path (without its language prefix) is in: the room whose path it is or lies under (a
 * conversation is in the support inbox; saved replies, under the inbox's path, are a room of their own), the longest
 * such path winning. The dashboard's path is every room's parent, so it is only its own page's room.
 */
export function currentRoom<Room extends { to: string }>(rooms: readonly Room[], path: string): Room | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  let found: Room | undefined;
  for (const room of rooms) {
    const inside = trimmed === room.to || (room.to !== CONSOLE_PATH && trimmed.startsWith(`${room.to}/`));
    if (inside && (found === undefined || room.to.length > found.to.length)) found = room;
  }
  return found;
}

/** How a room's link in the menu is marked: `page` on the room's own page, `true` on a page inside it. */
export function roomCurrent(room: { to: string }, current: { to: string } | undefined, path: string) {
  if (current !== room) return undefined;
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return trimmed === room.to ? ("page" as const) : ("true" as const);
}
