// TicketAPI (upstream ticket_api.py): a support-ticket queue with a logged-in user. State: ticket_queue (list of
// ticket dicts: id, title, description, status, priority, created_by[, resolution]), ticket_counter, current_user.
// Operations on arguments follow Python semantics (comparisons, str methods, dict access) so wrong argument types
// produce upstream's errors. One divergence: edit_ticket lists several invalid fields in the order given, where
// upstream joins a set whose order depends on Python's per-process string hashing.
import { attribute, publicAttributes, type InstanceVars } from "../py/attributes.js";
import { requireDict, requireList, setDictItem } from "../py/container-methods.js";
import { pyContains, pyIterate } from "../py/containers.js";
import { pyStr } from "../py/format.js";
import { pyBinary, pyCompare } from "../py/operators.js";
import { pyJoin, pyLower } from "../py/str-methods.js";
import { pyGetItem } from "../py/subscript.js";
import { pyDictOf, pyEquals, pyTruthy, type PyDict, type PyValue } from "../py/value.js";
import { defineBfclClass, type BfclConstants, type BfclInstance, type MethodSpec } from "./backend-class.js";
import { argument, errorResult, moduleDefaults, scenarioValue } from "./backend-support.js";

const OWNER = "TicketAPI";

export interface TicketApiInstance extends BfclInstance {
  readonly vars: InstanceVars;
}

type Method = MethodSpec<TicketApiInstance>;

const self = (instance: TicketApiInstance, name: string): PyValue => attribute(instance.vars, OWNER, name);

function findTicket(instance: TicketApiInstance, ticketId: PyValue): PyValue | undefined {
  for (const ticket of pyIterate(self(instance, "ticket_queue"))) {
    if (pyEquals(pyGetItem(ticket, "id"), ticketId)) return ticket;
  }
  return undefined;
}

/** The ticket with this id, or upstream's "not found" error dict. */
function lookup(instance: TicketApiInstance, ticketId: PyValue): { ticket: PyDict } | { failure: PyDict } {
  const ticket = findTicket(instance, ticketId);
  if (ticket === undefined || !pyTruthy(ticket))
    return { failure: errorResult(`Ticket with ID ${pyStr(ticketId)} not found.`) };
  return { ticket: requireDict(ticket, "__setitem__") };
}

const createTicket: Method = {
  params: [{ name: "title" }, { name: "description", default: "" }, { name: "priority", default: 1 }],
  run(instance, args) {
    const priority = argument(args, "priority");
    if (!pyTruthy(self(instance, "current_user")))
      return errorResult("User not authenticated. Please log in to create a ticket.");
    if (pyCompare("<", priority, 1) || pyCompare(">", priority, 5))
      return errorResult("Invalid priority. Priority must be between 1 and 5.");
    const ticket = pyDictOf({
      id: self(instance, "ticket_counter"),
      title: argument(args, "title"),
      description: argument(args, "description"),
      status: "Open",
      priority,
      created_by: self(instance, "current_user"),
    });
    requireList(self(instance, "ticket_queue"), "append").push(ticket);
    instance.vars.set("ticket_counter", pyBinary("+", self(instance, "ticket_counter"), 1));
    return ticket;
  },
};

const getTicket: Method = {
  params: [{ name: "ticket_id" }],
  run(instance, args) {
    const found = lookup(instance, argument(args, "ticket_id"));
    return "failure" in found ? found.failure : found.ticket;
  },
};

/** close_ticket / resolve_ticket: set a status unless the ticket already has it. */
function setStatus(status: "Closed" | "Resolved", verb: string): Method {
  return {
    params: status === "Closed" ? [{ name: "ticket_id" }] : [{ name: "ticket_id" }, { name: "resolution" }],
    run(instance, args) {
      const ticketId = argument(args, "ticket_id");
      const found = lookup(instance, ticketId);
      if ("failure" in found) return found.failure;
      if (pyEquals(pyGetItem(found.ticket, "status"), status)) {
        return errorResult(`Ticket with ID ${pyStr(ticketId)} is already ${status.toLowerCase()}.`);
      }
      setDictItem(found.ticket, "status", status);
      if (status === "Resolved") setDictItem(found.ticket, "resolution", argument(args, "resolution"));
      return pyDictOf({ status: `Ticket ${pyStr(ticketId)} has been ${verb} successfully.` });
    },
  };
}

const VALID_FIELDS = ["title", "description", "status", "priority"];

const editTicket: Method = {
  params: [{ name: "ticket_id" }, { name: "updates" }],
  run(instance, args) {
    const ticketId = argument(args, "ticket_id");
    const found = lookup(instance, ticketId);
    if ("failure" in found) return found.failure;
    const updates = requireDict(argument(args, "updates"), "keys");
    const invalid = [...updates.keys()].filter((key) => !pyContains(VALID_FIELDS, key));
    if (invalid.length > 0) {
      return errorResult(`Invalid fields for update: ${pyJoin(", ", invalid)}`);
    }
    for (const [key, value] of updates) if (value !== null) setDictItem(found.ticket, key, value);
    return pyDictOf({ status: `Ticket ${pyStr(ticketId)} has been updated successfully.` });
  },
};

const ticketLogin: Method = {
  params: [{ name: "username" }, { name: "password" }],
  run(instance, args) {
    const username = argument(args, "username");
    if (pyTruthy(username) && pyTruthy(argument(args, "password"))) {
      instance.vars.set("current_user", username);
      return pyDictOf({ success: true });
    }
    return pyDictOf({ success: false });
  },
};

const ticketGetLoginStatus: Method = {
  params: [],
  run: (instance) => pyDictOf({ login_status: pyTruthy(self(instance, "current_user")) }),
};

const logout: Method = {
  params: [],
  run(instance) {
    if (!pyTruthy(self(instance, "current_user"))) return pyDictOf({ success: false });
    instance.vars.set("current_user", null);
    return pyDictOf({ success: true });
  },
};

const getUserTickets: Method = {
  params: [{ name: "status", default: null }],
  run(instance, args) {
    const currentUser = self(instance, "current_user");
    if (!pyTruthy(currentUser)) return [errorResult("User not authenticated. Please log in to view tickets.")];
    const status = argument(args, "status");
    let tickets = pyIterate(self(instance, "ticket_queue")).filter((ticket) =>
      pyEquals(pyGetItem(ticket, "created_by"), currentUser),
    );
    if (pyTruthy(status)) {
      tickets = tickets.filter((ticket) => {
        const own = pyLower(pyGetItem(ticket, "status"));
        return own === pyLower(status);
      });
    }
    return tickets;
  },
};

function createInstance(constants: BfclConstants): TicketApiInstance {
  const vars: InstanceVars = new Map();
  return {
    vars,
    loadScenario(scenario) {
      const defaults = moduleDefaults(constants, "ticket_api");
      for (const key of ["ticket_queue", "ticket_counter", "current_user"])
        vars.set(key, scenarioValue(scenario, key, defaults));
    },
    publicState: () => publicAttributes(vars),
  };
}

export const ticketApiClass = defineBfclClass<TicketApiInstance>({
  className: "TicketAPI",
  moduleName: "ticket_api",
  stateless: false,
  create: createInstance,
  methods: {
    create_ticket: createTicket,
    get_ticket: getTicket,
    close_ticket: setStatus("Closed", "closed"),
    resolve_ticket: setStatus("Resolved", "resolved"),
    edit_ticket: editTicket,
    ticket_login: ticketLogin,
    ticket_get_login_status: ticketGetLoginStatus,
    logout,
    get_user_tickets: getUserTickets,
  },
});
