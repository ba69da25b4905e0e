// What the Tinker client says it is. The service reads the SDK version twice, as the SDK 0.25.0 sends it: in POST
// /api/v1/client/config ({sdk_version}: the flags it answers depend on it) and in POST /api/v1/create_session
// ({sdk_version}); both carry tinker_sdk_version, the installed tinker package's version (`from tinker._version
// import __version__ as tinker_sdk_version` in lib/internal_client_holder.py, _fetch_client_config and
// _create_session; `__version__ = version("tinker")` in _version.py; pyproject.toml says 0.25.0, commit
// d595dc2ba62a). budgetrl speaks that version's protocol, so it sends "0.25.0" in both: a server that reads the
// field as a version (to refuse clients too old, or pick flags) sees one it knows. Who is calling is said apart, in
// the User-Agent: the SDK sends "AsyncTinker/Python 0.25.0" (_base_client.py user_agent); budgetrl sends
// "budgetrl/VERSION (tinker-sdk 0.25.0; node/VERSION)".
import { packageVersion } from "../core/package-version.js";

/** The SDK version whose protocol this client speaks, sent as sdk_version. */
export const PROTOCOL_SDK_VERSION = "0.25.0";

/** The User-Agent of every request. */
export function userAgent(): string {
  return `budgetrl/${packageVersion()} (tinker-sdk ${PROTOCOL_SDK_VERSION}; node/${process.versions.node})`;
}
