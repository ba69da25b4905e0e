// The part of the WebAssembly JavaScript API this package uses. Node has it at run time, but the project
// compiles without the DOM lib, which is where TypeScript declares it.
declare global {
  namespace WebAssembly {
    interface MemoryDescriptor {
      initial: number;
      maximum?: number;
      shared?: boolean;
    }
    class Memory {
      constructor(descriptor: MemoryDescriptor);
      readonly buffer: ArrayBuffer;
      grow(deltaPages: number): number;
    }
    class Module {
      constructor(bytes: Uint8Array);
    }
    function validate(bytes: Uint8Array): boolean;
    class Instance {
      constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
      readonly exports: Record<string, unknown>;
    }
  }
}
export {};
