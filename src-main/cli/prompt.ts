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

/** A line of text from the terminal (input is not hidden: the keychain, not the screen, is the store). */
export async function ask(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
  }
}
