import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { StoppedError } from "../../src/core/errors.js";
import { listenForInterrupts, signalExitCode, type SignalSource } from "../../src/cli/interrupt.js";

function fakeProcess(): SignalSource & { emit(name: string): boolean; listenerCount(name: string): number } {
  return new EventEmitter() as unknown as SignalSource & {
    emit(name: string): boolean;
    listenerCount(name: string): number;
  };
}

describe("listenForInterrupts", () => {
  it("aborts on the first Ctrl-C, saying so, and exits at once with 130 on the second", () => {
    const source = fakeProcess();
    const exits: number[] = [];
    const notes: string[] = [];
    const interrupts = listenForInterrupts({
      source,
      exit: (code) => void exits.push(code),
      notify: (text) => void notes.push(text),
    });
    expect(interrupts.signal.aborted).toBe(false);
    source.emit("SIGINT");
    expect(interrupts.signal.aborted).toBe(true);
    expect(interrupts.signal.reason).toBeInstanceOf(StoppedError);
    expect(interrupts.received()).toBe("SIGINT");
    expect(notes.join("")).toMatch(/Ctrl-C: stopping, keeping what finished \(Ctrl-C again quits at once\)/);
    expect(exits).toEqual([]);
    source.emit("SIGINT");
    expect(exits).toEqual([130]);
    interrupts.dispose();
    expect(source.listenerCount("SIGINT") + source.listenerCount("SIGTERM")).toBe(0);
  });

  it("stops on SIGTERM too, with exit code 143", () => {
    const source = fakeProcess();
    const exits: number[] = [];
    const interrupts = listenForInterrupts({ source, exit: (code) => void exits.push(code) });
    source.emit("SIGTERM");
    expect(interrupts.received()).toBe("SIGTERM");
    source.emit("SIGTERM");
    expect(exits).toEqual([143]);
    expect([signalExitCode("SIGINT"), signalExitCode("SIGTERM")]).toEqual([130, 143]);
    interrupts.dispose();
  });
});
