// A small OpenEnv server written for the tests (node:http and ws on port 0), shaped as OpenEnv's grid world env: a
// 3x3 grid from (0, 0) to (2, 2), the action {"action": "UP" | "DOWN" | "LEFT" | "RIGHT"} (an enum behind a $ref, as
// pydantic writes it), reward 1 and done at the goal, -0.1 per other step. `fault` makes it misbehave on purpose.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer } from "ws";

export type Fault = "none" | "garbage-reply" | "drop-on-step" | "silent-on-step";

/** The action's shape: the grid's four moves, or free text ({"command": "..."}, as a text game's). */
export type ActionShape = "moves" | "text";

export interface FakeServer {
  readonly url: string;
  readonly sessions: () => number;
  close(): Promise<void>;
}

const ACTION_SCHEMA = {
  $defs: { MoveAction: { enum: ["UP", "DOWN", "LEFT", "RIGHT"], title: "MoveAction", type: "string" } },
  additionalProperties: false,
  properties: {
    metadata: { additionalProperties: true, type: "object" },
    action: { $ref: "#/$defs/MoveAction" },
  },
  required: ["action"],
  type: "object",
};

const TEXT_SCHEMA = {
  additionalProperties: false,
  properties: { command: { type: "string", title: "Command" } },
  required: ["command"],
  type: "object",
};

const MOVES: Record<string, [number, number]> = { UP: [-1, 0], DOWN: [1, 0], LEFT: [0, -1], RIGHT: [0, 1] };

export async function startFakeServer(fault: Fault = "none", shape: ActionShape = "moves"): Promise<FakeServer> {
  let open = 0;
  const http = createServer((request, response) => {
    const send = (body: unknown) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.url === "/health") return send({ status: "healthy" });
    if (request.url === "/metadata") return send({ name: "GridWorld", description: "a 3x3 grid" });
    if (request.url === "/schema")
      return send({ action: shape === "moves" ? ACTION_SCHEMA : TEXT_SCHEMA, observation: {}, state: {} });
    response.writeHead(404).end();
  });
  const sockets = new WebSocketServer({ server: http, path: "/ws" });
  sockets.on("connection", (socket) => {
    open++;
    let at: [number, number] = [0, 0];
    socket.on("close", () => open--);
    socket.on("message", (raw) => {
      const message = JSON.parse(raw.toString()) as { type: string; data?: { action?: string } };
      const observe = (reward: number, done: boolean) =>
        socket.send(
          JSON.stringify({ type: "observation", data: { observation: { x: at[0], y: at[1] }, reward, done } }),
        );
      if (message.type === "reset") {
        at = [0, 0];
        return observe(0, false);
      }
      if (message.type !== "step") return;
      if (fault === "garbage-reply") return socket.send("<html>oops</html>");
      if (fault === "drop-on-step") return socket.terminate();
      if (fault === "silent-on-step") return;
      const move = MOVES[message.data?.action ?? ""];
      if (move === undefined)
        return socket.send(
          JSON.stringify({ type: "error", data: { message: "bad action", code: "VALIDATION_ERROR" } }),
        );
      at = [Math.max(0, Math.min(2, at[0] + move[0])), Math.max(0, Math.min(2, at[1] + move[1]))];
      const goal = at[0] === 2 && at[1] === 2;
      observe(goal ? 1 : -0.1, goal);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions: () => open,
    async close() {
      for (const socket of sockets.clients) socket.terminate();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
