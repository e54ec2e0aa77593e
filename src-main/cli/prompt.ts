// Interactive questions on a terminal; never asked when stdin is not a TTY (scripts get a clear refusal).
import { createInterface } from 'node:readline/promises';

export const interactive = (): boolean => Boolean(process.stdin.isTTY && process.stderr.isTTY);

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
