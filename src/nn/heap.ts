// The tensor heap: one shared WebAssembly.Memory per process that every model allocates its tensors in, so
// that the WebAssembly kernels (which import this memory) and worker threads see the same floats. Views are
// Float32Array/Int32Array subarrays; a tensor's byte offset is its pointer. A first-fit free list with
// 64-byte alignment; memory grows on demand (views stay valid: shared buffers never detach).
import { BudgetrlError } from "../core/errors.js";

const PAGE = 65536;
const ALIGN = 64;
/** Bytes below this are left to the WebAssembly module's own static data. */
const HEAP_BASE = 1 << 20;
/** One page short of WebAssembly's 4 GiB: Node 20 cannot pass a SharedArrayBuffer of exactly 4 GiB to a worker
 * thread (the message fails to deserialize there), so a heap grown to the full 4 GiB would lose every job posted
 * to a worker. */
const MAX_PAGES = 65535;

export interface Heap {
  readonly memory: WebAssembly.Memory;
  /** Zeroed unless `zeroed` is false (for buffers every reader writes first: workspaces, KV-cache blocks). */
  allocFloats(count: number, zeroed?: boolean): Float32Array;
  allocInts(count: number): Int32Array;
  free(view: Float32Array | Int32Array): void;
  /** Bytes currently allocated (for tests and leak checks). */
  used(): number;
}

interface Block {
  offset: number;
  size: number;
}

/** `maxBytes` caps the memory below its largest (4 GiB less 64 KiB; tests of what running out does). */
export function createHeap(initialBytes = 16 << 20, maxBytes = MAX_PAGES * PAGE): Heap {
  const maxPages = Math.min(MAX_PAGES, Math.floor(maxBytes / PAGE));
  const memory = new WebAssembly.Memory({
    initial: Math.min(maxPages, Math.ceil((HEAP_BASE + initialBytes) / PAGE)),
    maximum: maxPages,
    shared: true,
  });
  const freeList: Block[] = [{ offset: HEAP_BASE, size: memory.buffer.byteLength - HEAP_BASE }];
  const live = new Map<number, number>();
  let usedBytes = 0;

  const grow = (bytes: number): void => {
    const before = memory.buffer.byteLength;
    const pages = Math.max(Math.ceil(bytes / PAGE), Math.ceil(before / PAGE / 4));
    const room = maxPages - before / PAGE;
    if (Math.ceil(bytes / PAGE) > room)
      throw new BudgetrlError(
        "nn:out-of-memory",
        `tensor heap cannot grow past ${((maxPages * PAGE) / 2 ** 30).toFixed(2)} GiB (asked for ${bytes} more bytes)`,
        "use a smaller batch, context or model",
      );
    const grown = Math.min(pages, room);
    memory.grow(grown);
    const last = freeList[freeList.length - 1];
    if (last !== undefined && last.offset + last.size === before) last.size += grown * PAGE;
    else freeList.push({ offset: before, size: grown * PAGE });
  };

  const allocBytes = (count: number, zeroed = true): number => {
    const size = Math.max(ALIGN, Math.ceil((count * 4) / ALIGN) * ALIGN);
    let index = freeList.findIndex((b) => b.size >= size);
    if (index < 0) {
      grow(size);
      index = freeList.findIndex((b) => b.size >= size);
    }
    const block = freeList[index]!;
    const offset = block.offset;
    block.offset += size;
    block.size -= size;
    if (block.size === 0) freeList.splice(index, 1);
    live.set(offset, size);
    usedBytes += size;
    if (zeroed) new Uint8Array(memory.buffer, offset, size).fill(0);
    return offset;
  };

  const free = (view: Float32Array | Int32Array): void => {
    const offset = view.byteOffset;
    const size = live.get(offset);
    if (size === undefined) throw new BudgetrlError("nn:bad-free", `no tensor allocated at byte ${offset}`);
    live.delete(offset);
    usedBytes -= size;
    let i = 0;
    while (i < freeList.length && freeList[i]!.offset < offset) i++;
    freeList.splice(i, 0, { offset, size });
    const next = freeList[i + 1];
    if (next !== undefined && offset + size === next.offset) {
      freeList[i]!.size += next.size;
      freeList.splice(i + 1, 1);
    }
    const prev = freeList[i - 1];
    if (prev !== undefined && prev.offset + prev.size === offset) {
      prev.size += freeList[i]!.size;
      freeList.splice(i, 1);
    }
  };

  return {
    memory,
    allocFloats: (count, zeroed) => {
      const offset = allocBytes(count, zeroed); // may grow the memory: read the buffer after it
      return new Float32Array(memory.buffer, offset, count);
    },
    allocInts: (count) => {
      const offset = allocBytes(count);
      return new Int32Array(memory.buffer, offset, count);
    },
    free,
    used: () => usedBytes,
  };
}

let processHeap: Heap | undefined;

/** The heap every model in this process shares (one worker pool serves them all). */
export function sharedHeap(): Heap {
  processHeap ??= createHeap();
  return processHeap;
}
