// zstd for request bodies: when the server's client config says proto_compress_fwdbwd, the SDK compresses the
// forward_backward body and sends Content-Encoding: zstd. The codec is @hpcc-js/wasm-zstd (the reference zstd
// library compiled to WebAssembly and shipped inside the npm package: nothing native, nothing downloaded),
// loaded once, on the first body that needs it.
import { Zstd } from "@hpcc-js/wasm-zstd";

let codec: Promise<Zstd> | undefined;

/** `bytes` as one zstd frame (level 3, zstd's default and the SDK's). */
export async function zstdCompress(bytes: Uint8Array): Promise<Uint8Array> {
  codec ??= Zstd.load();
  return (await codec).compress(bytes, 3);
}
