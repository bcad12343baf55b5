import { describe, expect, it } from "vitest";
import { currentRoom, roomCurrent } from "./console-rooms";

const dashboard = { to: "/admin", label: "Dashboard" };
const inbox = { to: "/admin/support", label: "Support inbox" };
const rooms = [
  dashboard,
  inbox,
  { to: "/admin/support/saved-replies", label: "Saved replies" },
  { to: "/admin/status", label: "Status" },
];

describe("currentRoom", () => {
  it("names the room of its own page, with or without a trailing slash", () => {
    expect(currentRoom(rooms, "/admin")?.label).toBe("Dashboard");
    expect(currentRoom(rooms, "/admin/status")?.label).toBe("Status");
    expect(currentRoom(rooms, "/admin/status/")?.label).toBe("Status");
  });

  it("puts a conversation in the support inbox, and saved replies in their own room", () => {
    expect(currentRoom(rooms, "/admin/support/0b6f7e1c-1d2e-4f3a-9b8c-7d6e5f4a3b2c")?.label).toBe("Support inbox");
    expect(currentRoom(rooms, "/admin/support/saved-replies")?.label).toBe("Saved replies");
  });

  it("names no room for a page in none of them, nor for a room the person may not enter", () => {
    expect(currentRoom(rooms, "/admin/no-such-page")).toBeUndefined();
    expect(currentRoom(rooms, "/admin/staff")).toBeUndefined();
    expect(currentRoom(rooms, "/admin/statuses")).toBeUndefined();
  });
});

describe("roomCurrent", () => {
  it("marks the room's own page as the page, a page inside it as the current room, and no other", () => {
    const conversation = "/admin/support/0b6f7e1c-1d2e-4f3a-9b8c-7d6e5f4a3b2c";
    expect(roomCurrent(inbox, currentRoom(rooms, "/admin/support"), "/admin/support")).toBe("page");
    expect(roomCurrent(inbox, currentRoom(rooms, conversation), conversation)).toBe("true");
    expect(roomCurrent(dashboard, currentRoom(rooms, conversation), conversation)).toBeUndefined();
  });
});
