// MessageAPI (upstream message_api.py): users of a workspace sending messages. State: generated_ids (set of
// message ids drawn so far), user_count, user_map (name -> "USR00n"), inbox (list of one-entry dicts
// {receiver_id: message}), message_count, current_user. Message ids come from the instance's own
// random.Random(random_seed, default 200191) via randint(10000, 99999), redrawn while already used, exactly as
// upstream draws them (CPython's Mersenne Twister reproduced bit for bit).
import { attribute, publicAttributes, type InstanceVars } from "../py/attributes.js";
import { dictLookup, pyListRemove, requireDict, requireList, setDictItem } from "../py/container-methods.js";
import { dictHas, pyContains, pyIterate } from "../py/containers.js";
import { pyIntOf } from "../py/convert.js";
import { pyRaise } from "../py/errors.js";
import { pyStr } from "../py/format.js";
import { pyBinary } from "../py/operators.js";
import { createPyRandom, type PyRandom } from "../py/random.js";
import { pyLower } from "../py/str-methods.js";
import { pyZfill } from "../py/text.js";
import { pyDictOf, pyEquals, pyTruthy, pyTypeName, type PyDict, type PyValue } from "../py/value.js";
import { defineBfclClass, type BfclConstants, type BfclInstance, type MethodSpec } from "./backend-class.js";
import { argument, errorResult, moduleDefaults, scenarioValue } from "./backend-support.js";

const OWNER = "MessageAPI";
const DEFAULT_SEED = 200191;

export interface MessageApiInstance extends BfclInstance {
  readonly vars: InstanceVars;
  /** Upstream's private self._random. */
  random: PyRandom | undefined;
}

type Method = MethodSpec<MessageApiInstance>;

const self = (instance: MessageApiInstance, name: string): PyValue => attribute(instance.vars, OWNER, name);
const notLoggedIn = (instance: MessageApiInstance): boolean => !pyTruthy(self(instance, "current_user"));

/** list(message.items())[0] of one inbox entry. */
function firstItem(message: PyValue): [PyValue, PyValue] {
  const entries = [...requireDict(message, "items")];
  const first = entries[0];
  if (first === undefined) return pyRaise("IndexError", "list index out of range");
  return [first[0], first[1]];
}

/** self.user_map.values(), with the AttributeError a non-dict gets. */
function userIds(instance: MessageApiInstance): PyValue[] {
  return [...requireDict(self(instance, "user_map"), "values").values()];
}

/** Upstream _generate_id: randint(10000, 99999) until unused, recorded in generated_ids. */
function generateId(instance: MessageApiInstance): PyDict {
  const random = instance.random ?? pyRaise("AttributeError", `'${OWNER}' object has no attribute '_random'`);
  const used = self(instance, "generated_ids");
  let id = random.randint(10000, 99999);
  while (pyContains(used, id)) id = random.randint(10000, 99999);
  if (!(used instanceof Set)) pyRaise("AttributeError", `'${pyTypeName(used)}' object has no attribute 'add'`);
  used.add(id);
  return pyDictOf({ new_id: id });
}

const listUsers: Method = {
  params: [],
  run: (instance) => pyDictOf({ user_list: [...requireDict(self(instance, "user_map"), "keys").keys()] }),
};

const getUserId: Method = {
  params: [{ name: "user" }],
  run(instance, args) {
    const user = argument(args, "user");
    const userMap = requireDict(self(instance, "user_map"), "get");
    if (!dictHas(userMap, user)) return errorResult(`User '${pyStr(user)}' not found in the workspace.`);
    return pyDictOf({ user_id: dictLookup(userMap, user) ?? null });
  },
};

const messageLogin: Method = {
  params: [{ name: "user_id" }],
  run(instance, args) {
    const userId = argument(args, "user_id");
    if (!pyContains(userIds(instance), userId))
      return pyDictOf({ login_status: false, message: `User ID '${pyStr(userId)}' not found.` });
    instance.vars.set("current_user", userId);
    return pyDictOf({ login_status: true, message: `User '${pyStr(userId)}' logged in successfully.` });
  },
};

const messageGetLoginStatus: Method = {
  params: [],
  run: (instance) => pyDictOf({ login_status: pyTruthy(self(instance, "current_user")) }),
};

const sendMessage: Method = {
  params: [{ name: "receiver_id" }, { name: "message" }],
  run(instance, args) {
    const receiverId = argument(args, "receiver_id");
    if (notLoggedIn(instance)) return errorResult("No user is currently logged in.");
    if (!pyContains(userIds(instance), receiverId)) return errorResult(`Receiver ID '${pyStr(receiverId)}' not found.`);
    const messageId = generateId(instance);
    const entry: PyDict = new Map();
    setDictItem(entry, receiverId, argument(args, "message"));
    requireList(self(instance, "inbox"), "append").push(entry);
    instance.vars.set("message_count", pyBinary("+", self(instance, "message_count"), 1));
    return pyDictOf({
      sent_status: true,
      message_id: messageId,
      message: `Message sent to '${pyStr(receiverId)}' successfully.`,
    });
  },
};

const deleteMessage: Method = {
  params: [{ name: "receiver_id" }],
  run(instance, args) {
    const receiverId = argument(args, "receiver_id");
    if (notLoggedIn(instance)) return errorResult("No user is currently logged in.");
    const inbox = requireList(self(instance, "inbox"), "remove");
    for (const message of [...inbox].reverse()) {
      const [receiver] = firstItem(message);
      if (pyEquals(receiver, receiverId)) {
        pyListRemove(inbox, message);
        return pyDictOf({
          deleted_status: true,
          receiver_id: receiver,
          message: `Receiver ${pyStr(receiverId)}'s latest message deleted successfully.`,
        });
      }
    }
    return errorResult(`Receiver ID ${pyStr(receiverId)} not found.`);
  },
};

const viewMessagesSent: Method = {
  params: [],
  run(instance) {
    if (notLoggedIn(instance)) return errorResult("No user is currently logged in.");
    const sent: PyDict = new Map();
    for (const message of pyIterate(self(instance, "inbox"))) {
      const [receiver, content] = firstItem(message);
      const existing = dictLookup(sent, receiver);
      if (existing === undefined) setDictItem(sent, receiver, [content]);
      else requireList(existing, "append").push(content);
    }
    return pyDictOf({ messages: sent });
  },
};

const addContact: Method = {
  params: [{ name: "user_name" }],
  run(instance, args) {
    const userName = argument(args, "user_name");
    const userMap = requireDict(self(instance, "user_map"), "values");
    if (dictHas(userMap, userName)) return errorResult(`User name '${pyStr(userName)}' already exists.`);
    const count = pyBinary("+", self(instance, "user_count"), 1);
    instance.vars.set("user_count", count);
    const userId = `USR${pyZfill(pyStr(count), 3)}`;
    if (pyContains([...userMap.values()], userId)) return errorResult(`User ID '${userId}' already exists.`);
    setDictItem(userMap, userName, userId);
    return pyDictOf({
      added_status: true,
      user_id: userId,
      message: `Contact '${pyStr(userName)}' added successfully.`,
    });
  },
};

const searchMessages: Method = {
  params: [{ name: "keyword" }],
  run(instance, args) {
    if (notLoggedIn(instance)) return errorResult("No user is currently logged in.");
    const keyword = pyLower(argument(args, "keyword"));
    const results: PyValue[] = [];
    for (const message of pyIterate(self(instance, "inbox"))) {
      const [receiverId, content] = firstItem(message);
      if (pyLower(content).includes(keyword)) {
        results.push(pyDictOf({ receiver_id: receiverId, message: content }));
      }
    }
    return pyDictOf({ results });
  },
};

const getMessageStats: Method = {
  params: [],
  run(instance) {
    if (notLoggedIn(instance)) return errorResult("No user is currently logged in.");
    let received = 0;
    const contacts: PyValue[] = [];
    for (const message of pyIterate(self(instance, "inbox"))) {
      const [receiverId] = firstItem(message);
      received += 1;
      if (!pyContains(contacts, receiverId)) contacts.push(receiverId);
    }
    return pyDictOf({ stats: pyDictOf({ received_count: received, total_contacts: contacts.length }) });
  },
};

function createInstance(constants: BfclConstants): MessageApiInstance {
  const vars: InstanceVars = new Map();
  const instance: MessageApiInstance = {
    vars,
    random: undefined,
    loadScenario(scenario) {
      const defaults = moduleDefaults(constants, "message_api");
      instance.random = createPyRandom(pyIntOf(scenario.get("random_seed") ?? DEFAULT_SEED));
      for (const key of ["generated_ids", "user_count", "user_map", "inbox", "message_count", "current_user"]) {
        vars.set(key, scenarioValue(scenario, key, defaults));
      }
      // default_state.json writes upstream's default set() as a list.
      const ids = attribute(vars, OWNER, "generated_ids");
      if (!scenario.has("generated_ids") && Array.isArray(ids))
        vars.set("generated_ids", new Set(ids.map((id) => pyIntOf(id))));
    },
    publicState: () => publicAttributes(vars),
  };
  return instance;
}

export const messageApiClass = defineBfclClass<MessageApiInstance>({
  className: "MessageAPI",
  moduleName: "message_api",
  stateless: false,
  create: createInstance,
  methods: {
    list_users: listUsers,
    get_user_id: getUserId,
    message_login: messageLogin,
    message_get_login_status: messageGetLoginStatus,
    send_message: sendMessage,
    delete_message: deleteMessage,
    view_messages_sent: viewMessagesSent,
    add_contact: addContact,
    search_messages: searchMessages,
    get_message_stats: getMessageStats,
  },
});
