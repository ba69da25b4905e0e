// MessageAPI against upstream: every expected result string and state repr below was produced by CPython 3.11
// running upstream message_api.py through execute_multi_turn_func_call on the same calls and scenario.
import { describe, it } from "vitest";
import type { BfclConstants } from "../../../../src/envs/bfcl/apis/backend-class.js";
import { messageApiClass } from "../../../../src/envs/bfcl/apis/message-api.js";
import type { PyDict } from "../../../../src/envs/bfcl/py/value.js";
import { type Step, dataConstants, entryConfig, expectState, py, runSteps } from "./harness.js";
import { expectMatchesFuncDocs } from "./scenario-player.js";

const run = (scenario: PyDict, longContext: boolean, steps: readonly Step[], constants?: BfclConstants) =>
  runSteps(messageApiClass, scenario, longContext, steps, constants);

describe("MessageAPI", () => {
  it("has exactly the functions, parameters, required ones and defaults of func_doc/message_api.json", () => {
    expectMatchesFuncDocs(messageApiClass);
  });

  it("rejects everything but list_users, get_user_id and login before a login", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["list_users", "{}", '{"user_list": ["Alice", "Bob", "Catherine", "Daniel"]}'],
      ["get_user_id", '{"user": "Alice"}', '{"user_id": "USR001"}'],
      ["get_user_id", '{"user": "Nobody"}', `{"error": "User 'Nobody' not found in the workspace."}`],
      ["get_user_id", '{"user": ["x"]}', "Error during execution: unhashable type: 'list'"],
      ["send_message", '{"receiver_id": "USR002", "message": "hi"}', '{"error": "No user is currently logged in."}'],
      ["view_messages_sent", "{}", '{"error": "No user is currently logged in."}'],
      ["delete_message", '{"receiver_id": "USR002"}', '{"error": "No user is currently logged in."}'],
      ["search_messages", '{"keyword": "x"}', '{"error": "No user is currently logged in."}'],
      ["get_message_stats", "{}", '{"error": "No user is currently logged in."}'],
      ["message_get_login_status", "{}", '{"login_status": false}'],
      ["message_login", '{"user_id": "USR999"}', `{"login_status": false, "message": "User ID 'USR999' not found."}`],
      [
        "message_login",
        '{"user_id": "USR001"}',
        `{"login_status": true, "message": "User 'USR001' logged in successfully."}`,
      ],
      ["message_get_login_status", "{}", '{"login_status": true}'],
    ]);
    expectState(instance, [
      ["generated_ids", "sorted []"],
      ["user_count", "4"],
      ["user_map", "{'Alice': 'USR001', 'Bob': 'USR002', 'Catherine': 'USR003', 'Daniel': 'USR004'}"],
      [
        "inbox",
        "[{'USR002': 'My name is Alice. I want to connect.'}, {'USR003': 'Could you upload the file?'}, {'USR004': 'Could you upload the file?'}]",
      ],
      ["message_count", "3"],
      ["current_user", "'USR001'"],
    ]);
  });

  it("sends with ids from random.Random(200191), deletes the latest match, searches case-insensitively", () => {
    const instance = run(py("{}") as PyDict, false, [
      [
        "message_login",
        '{"user_id": "USR001"}',
        `{"login_status": true, "message": "User 'USR001' logged in successfully."}`,
      ],
      ["send_message", '{"receiver_id": "USR999", "message": "hi"}', `{"error": "Receiver ID 'USR999' not found."}`],
      [
        "send_message",
        '{"receiver_id": "USR003", "message": "Could you upload the file?"}',
        `{"sent_status": true, "message_id": {"new_id": 67410}, "message": "Message sent to 'USR003' successfully."}`,
      ],
      [
        "send_message",
        '{"receiver_id": "USR003", "message": 42}',
        `{"sent_status": true, "message_id": {"new_id": 41772}, "message": "Message sent to 'USR003' successfully."}`,
      ],
      [
        "send_message",
        '{"receiver_id": "USR002", "message": null}',
        `{"sent_status": true, "message_id": {"new_id": 24547}, "message": "Message sent to 'USR002' successfully."}`,
      ],
      [
        "view_messages_sent",
        "{}",
        '{"messages": {"USR002": ["My name is Alice. I want to connect.", null], "USR003": ["Could you upload the file?", "Could you upload the file?", 42], "USR004": ["Could you upload the file?"]}}',
      ],
      [
        "delete_message",
        '{"receiver_id": "USR003"}',
        `{"deleted_status": true, "receiver_id": "USR003", "message": "Receiver USR003's latest message deleted successfully."}`,
      ],
      ["delete_message", '{"receiver_id": "USR999"}', '{"error": "Receiver ID USR999 not found."}'],
      [
        "view_messages_sent",
        "{}",
        '{"messages": {"USR002": ["My name is Alice. I want to connect.", null], "USR003": ["Could you upload the file?", "Could you upload the file?"], "USR004": ["Could you upload the file?"]}}',
      ],
      [
        "search_messages",
        '{"keyword": "UPLOAD"}',
        "Error during execution: 'NoneType' object has no attribute 'lower'",
      ],
      ["search_messages", '{"keyword": 5}', "Error during execution: 'int' object has no attribute 'lower'"],
      ["get_message_stats", "{}", '{"stats": {"received_count": 5, "total_contacts": 3}}'],
    ]);
    expectState(instance, [
      ["generated_ids", "sorted [24547, 41772, 67410]"],
      ["user_count", "4"],
      ["user_map", "{'Alice': 'USR001', 'Bob': 'USR002', 'Catherine': 'USR003', 'Daniel': 'USR004'}"],
      [
        "inbox",
        "[{'USR002': 'My name is Alice. I want to connect.'}, {'USR003': 'Could you upload the file?'}, {'USR004': 'Could you upload the file?'}, {'USR003': 'Could you upload the file?'}, {'USR002': None}]",
      ],
      ["message_count", "6"],
      ["current_user", "'USR001'"],
    ]);
  });

  it("adds contacts with the next USR id, even when the name check then fails", () => {
    const instance = run(py("{}") as PyDict, false, [
      ["add_contact", '{"user_name": "Alice"}', `{"error": "User name 'Alice' already exists."}`],
      [
        "add_contact",
        '{"user_name": "Eve"}',
        `{"added_status": true, "user_id": "USR005", "message": "Contact 'Eve' added successfully."}`,
      ],
      ["add_contact", '{"user_name": "Eve"}', `{"error": "User name 'Eve' already exists."}`],
      ["add_contact", '{"user_name": ["x"]}', "Error during execution: unhashable type: 'list'"],
      [
        "add_contact",
        '{"user_name": 7}',
        `{"added_status": true, "user_id": "USR006", "message": "Contact '7' added successfully."}`,
      ],
      ["list_users", "{}", '{"user_list": ["Alice", "Bob", "Catherine", "Daniel", "Eve", 7]}'],
      ["get_user_id", '{"user": 7}', '{"user_id": "USR006"}'],
      [
        "message_login",
        '{"user_id": "USR006"}',
        `{"login_status": true, "message": "User 'USR006' logged in successfully."}`,
      ],
      ["message_get_login_status", "{}", '{"login_status": true}'],
    ]);
    expectState(instance, [
      ["generated_ids", "sorted []"],
      ["user_count", "6"],
      [
        "user_map",
        "{'Alice': 'USR001', 'Bob': 'USR002', 'Catherine': 'USR003', 'Daniel': 'USR004', 'Eve': 'USR005', 7: 'USR006'}",
      ],
      [
        "inbox",
        "[{'USR002': 'My name is Alice. I want to connect.'}, {'USR003': 'Could you upload the file?'}, {'USR004': 'Could you upload the file?'}]",
      ],
      ["message_count", "3"],
      ["current_user", "'USR006'"],
    ]);
  });

  it("search_messages fails on a non-str message only when it reaches it", () => {
    const instance = run(py("{}") as PyDict, false, [
      [
        "message_login",
        '{"user_id": "USR002"}',
        `{"login_status": true, "message": "User 'USR002' logged in successfully."}`,
      ],
      [
        "send_message",
        '{"receiver_id": "USR001", "message": 3}',
        `{"sent_status": true, "message_id": {"new_id": 67410}, "message": "Message sent to 'USR001' successfully."}`,
      ],
      ["search_messages", '{"keyword": "file"}', "Error during execution: 'int' object has no attribute 'lower'"],
    ]);
    expectState(instance, [
      ["generated_ids", "sorted [67410]"],
      ["user_count", "4"],
      ["user_map", "{'Alice': 'USR001', 'Bob': 'USR002', 'Catherine': 'USR003', 'Daniel': 'USR004'}"],
      [
        "inbox",
        "[{'USR002': 'My name is Alice. I want to connect.'}, {'USR003': 'Could you upload the file?'}, {'USR004': 'Could you upload the file?'}, {'USR001': 3}]",
      ],
      ["message_count", "4"],
      ["current_user", "'USR002'"],
    ]);
  });

  it("draws message ids from the entry's scenario state (multi_turn_base_17)", () => {
    const instance = run(
      entryConfig("multi_turn_base_17", "MessageAPI"),
      false,
      [
        ["message_get_login_status", "{}", '{"login_status": true}'],
        ["list_users", "{}", '{"user_list": ["Alice", "Bob", "Catherine", "Daniel"]}'],
        [
          "view_messages_sent",
          "{}",
          '{"messages": {"USR002": [["Meeting at 3 PM"]], "USR003": [["Please review the document."]]}}',
        ],
        ["send_message", '{"receiver_id": "USR005", "message": "ok"}', `{"error": "Receiver ID 'USR005' not found."}`],
        [
          "add_contact",
          '{"user_name": "Newcomer"}',
          `{"added_status": true, "user_id": "USR005", "message": "Contact 'Newcomer' added successfully."}`,
        ],
        [
          "send_message",
          '{"receiver_id": "USR005", "message": "again"}',
          `{"sent_status": true, "message_id": {"new_id": 67410}, "message": "Message sent to 'USR005' successfully."}`,
        ],
        [
          "send_message",
          '{"receiver_id": "USR002", "message": "x"}',
          `{"sent_status": true, "message_id": {"new_id": 41772}, "message": "Message sent to 'USR002' successfully."}`,
        ],
        ["get_message_stats", "{}", '{"stats": {"received_count": 4, "total_contacts": 3}}'],
        [
          "delete_message",
          '{"receiver_id": "USR002"}',
          `{"deleted_status": true, "receiver_id": "USR002", "message": "Receiver USR002's latest message deleted successfully."}`,
        ],
        ["search_messages", '{"keyword": "again"}', "Error during execution: 'list' object has no attribute 'lower'"],
      ],
      dataConstants(),
    );
    expectState(instance, [
      ["generated_ids", "sorted [41772, 67410]"],
      ["user_count", "5"],
      [
        "user_map",
        "{'Alice': 'USR001', 'Bob': 'USR002', 'Catherine': 'USR003', 'Daniel': 'USR004', 'Newcomer': 'USR005'}",
      ],
      ["inbox", "[{'USR002': ['Meeting at 3 PM']}, {'USR003': ['Please review the document.']}, {'USR005': 'again'}]"],
      ["message_count", "5"],
      ["current_user", "'USR001'"],
    ]);
  });
});
