// TicketAPI against upstream: every expected string below was produced by CPython 3.11 running upstream
// ticket_api.py (through execute_multi_turn_func_call) on the same calls.
import { describe, expect, it } from "vitest";
import { ticketApiClass } from "../../../../src/envs/bfcl/apis/ticket-api.js";
import { pyRepr } from "../../../../src/envs/bfcl/py/format.js";
import { pyDict, pyFloat, type PyValue } from "../../../../src/envs/bfcl/py/value.js";
import { attr, call, dataConstants, entryConfig, instantiate, py } from "./harness.js";
import { expectMatchesFuncDocs } from "./scenario-player.js";

type Step = readonly [string, Readonly<Record<string, PyValue>>, string];

function run(steps: readonly Step[]) {
  const instance = instantiate(ticketApiClass);
  for (const [name, kwargs, expected] of steps)
    expect(call(ticketApiClass, instance, name, kwargs), `${name}(${JSON.stringify(kwargs)})`).toBe(expected);
  return instance;
}

describe("TicketAPI", () => {
  it("has exactly the functions, parameters, required ones and defaults of func_doc/ticket_api.json", () => {
    expectMatchesFuncDocs(ticketApiClass);
  });

  it("starts from DEFAULT_STATE and keeps upstream's attribute order", () => {
    const instance = instantiate(ticketApiClass);
    expect(instance.publicState().map(([name]) => name)).toEqual(["ticket_queue", "ticket_counter", "current_user"]);
    expect(pyRepr(attr(instance, "ticket_counter") ?? null)).toBe("1");
  });

  it("requires a login for create_ticket and get_user_tickets; login needs a truthy username and password", () => {
    run([
      ["create_ticket", { title: "t" }, '{"error": "User not authenticated. Please log in to create a ticket."}'],
      ["get_user_tickets", {}, "[{'error': 'User not authenticated. Please log in to view tickets.'}]"],
      ["ticket_get_login_status", {}, '{"login_status": false}'],
      ["logout", {}, '{"success": false}'],
      ["ticket_login", { username: "", password: "x" }, '{"success": false}'],
      ["ticket_login", { username: "u", password: "p" }, '{"success": true}'],
      ["ticket_get_login_status", {}, '{"login_status": true}'],
      ["logout", {}, '{"success": true}'],
      ["logout", {}, '{"success": false}'],
      ["get_user_tickets", { status: "x" }, "[{'error': 'User not authenticated. Please log in to view tickets.'}]"],
    ]);
  });

  it("creates, finds, closes, resolves and edits tickets with upstream's messages and errors", () => {
    const instance = run([
      ["ticket_login", { username: "u", password: "p" }, '{"success": true}'],
      [
        "create_ticket",
        { title: "A" },
        '{"id": 1, "title": "A", "description": "", "status": "Open", "priority": 1, "created_by": "u"}',
      ],
      [
        "create_ticket",
        { title: "B", description: "d", priority: 5 },
        '{"id": 2, "title": "B", "description": "d", "status": "Open", "priority": 5, "created_by": "u"}',
      ],
      [
        "create_ticket",
        { title: "C", priority: 0 },
        '{"error": "Invalid priority. Priority must be between 1 and 5."}',
      ],
      [
        "create_ticket",
        { title: "C", priority: "3" },
        "Error during execution: '<' not supported between instances of 'str' and 'int'",
      ],
      [
        "get_ticket",
        { ticket_id: 1 },
        '{"id": 1, "title": "A", "description": "", "status": "Open", "priority": 1, "created_by": "u"}',
      ],
      [
        "get_ticket",
        { ticket_id: pyFloat(1) },
        '{"id": 1, "title": "A", "description": "", "status": "Open", "priority": 1, "created_by": "u"}',
      ],
      ["get_ticket", { ticket_id: 99 }, '{"error": "Ticket with ID 99 not found."}'],
      ["close_ticket", { ticket_id: 1 }, '{"status": "Ticket 1 has been closed successfully."}'],
      ["close_ticket", { ticket_id: 1 }, '{"error": "Ticket with ID 1 is already closed."}'],
      ["close_ticket", { ticket_id: 42 }, '{"error": "Ticket with ID 42 not found."}'],
      [
        "resolve_ticket",
        { ticket_id: 1, resolution: "done" },
        '{"status": "Ticket 1 has been resolved successfully."}',
      ],
      ["resolve_ticket", { ticket_id: 1, resolution: "again" }, '{"error": "Ticket with ID 1 is already resolved."}'],
      ["resolve_ticket", { ticket_id: 7, resolution: "x" }, '{"error": "Ticket with ID 7 not found."}'],
      [
        "edit_ticket",
        { ticket_id: 2, updates: py('{"title": "New", "priority": null}') },
        '{"status": "Ticket 2 has been updated successfully."}',
      ],
      ["edit_ticket", { ticket_id: 2, updates: py('{"owner": "x"}') }, '{"error": "Invalid fields for update: owner"}'],
      [
        "edit_ticket",
        { ticket_id: 2, updates: pyDict([[1, "x"]]) },
        "Error during execution: sequence item 0: expected str instance, int found",
      ],
      [
        "edit_ticket",
        { ticket_id: 2, updates: ["title"] },
        "Error during execution: 'list' object has no attribute 'keys'",
      ],
      ["edit_ticket", { ticket_id: 9, updates: new Map() }, '{"error": "Ticket with ID 9 not found."}'],
      [
        "get_user_tickets",
        {},
        "[{'id': 1, 'title': 'A', 'description': '', 'status': 'Resolved', 'priority': 1, 'created_by': 'u', 'resolution': 'done'}, {'id': 2, 'title': 'New', 'description': 'd', 'status': 'Open', 'priority': 5, 'created_by': 'u'}]",
      ],
      [
        "get_user_tickets",
        { status: "OPEN" },
        "[{'id': 2, 'title': 'New', 'description': 'd', 'status': 'Open', 'priority': 5, 'created_by': 'u'}]",
      ],
      [
        "get_user_tickets",
        { status: "resolved" },
        "[{'id': 1, 'title': 'A', 'description': '', 'status': 'Resolved', 'priority': 1, 'created_by': 'u', 'resolution': 'done'}]",
      ],
      ["get_user_tickets", { status: 5 }, "Error during execution: 'int' object has no attribute 'lower'"],
    ]);
    expect(pyRepr(attr(instance, "ticket_queue") ?? null)).toBe(
      "[{'id': 1, 'title': 'A', 'description': '', 'status': 'Resolved', 'priority': 1, 'created_by': 'u', 'resolution': 'done'}, {'id': 2, 'title': 'New', 'description': 'd', 'status': 'Open', 'priority': 5, 'created_by': 'u'}]",
    );
    expect(attr(instance, "ticket_counter")).toBe(3);
  });

  it("replays calls on a data entry's initial config (multi_turn_base_23), KeyError included", () => {
    const instance = instantiate(
      ticketApiClass,
      entryConfig("multi_turn_base_23", "TicketAPI"),
      false,
      dataConstants(),
    );
    const steps: Step[] = [
      [
        "get_ticket",
        { ticket_id: 7423 },
        '{"id": 7423, "status": "unresolved", "description": "Minor snag in the ticketing system."}',
      ],
      ["ticket_login", { username: "a", password: "b" }, '{"success": true}'],
      ["get_user_tickets", {}, "Error during execution: 'created_by'"],
      ["close_ticket", { ticket_id: 7423 }, '{"status": "Ticket 7423 has been closed successfully."}'],
      [
        "edit_ticket",
        { ticket_id: 7423, updates: py('{"priority": 3}') },
        '{"status": "Ticket 7423 has been updated successfully."}',
      ],
      [
        "get_ticket",
        { ticket_id: 7423 },
        '{"id": 7423, "status": "Closed", "description": "Minor snag in the ticketing system.", "priority": 3}',
      ],
    ];
    for (const [name, kwargs, expected] of steps) expect(call(ticketApiClass, instance, name, kwargs)).toBe(expected);
    expect(pyRepr(attr(instance, "current_user") ?? null)).toBe("'a'");
  });
});
