// `budgetrl view`: a read-only web app over a run store or a study folder (runs, a run's Pass@(K,T) and tasks, its
// episodes turn by turn, runs compared on the same tasks), server-rendered HTML from node:http with its own
// stylesheet and script (nothing loaded from elsewhere). Not a package entry: the CLI opens it.
export { openViewSource, type ViewSource } from "./source.js";
export { DEFAULT_VIEW_PORT, startViewServer, type ViewServer, type ViewServerOptions } from "./server.js";
