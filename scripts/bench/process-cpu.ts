import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times: 100 on Linux. */
const CLOCK_TICKS = 100;

/** A process's CPU time (user + system), in µs, read from `/proc/<pid>/stat`; NaN without /proc. */
export function cpuMicrosOf(pid: number | undefined): number {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
