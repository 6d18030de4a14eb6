/**
 * A benchmark's goals: a bound on one measured figure, judged and printed the same way by
 * every benchmark. A goal whose figure is missing (its row did not run: `NaN`) is not met.
 *
 * ```ts
 * const goals = [goal('write: median time', write.time.median, { op: '<', bound: 15, unit: ' ms', digits: 1 })];
 * console.log(goalTable(goals, 'text'));   // write: median time  11.4 ms (< 15 ms)  met
 * ```
 */
import { type Column, markdownTable, textTable } from './table.js';

export type Comparison = '<' | '≤' | '≥' | '>';

export interface Target {
  readonly op: Comparison;
  readonly bound: number;
  /** Printed after the value and after the bound: `' ms'`, `' MiB'`, `'×'`, `' B/char'`. */
  readonly unit?: string;
  /** Decimals of the printed value; 2 when absent. */
  readonly digits?: number;
}

export interface Goal {
  readonly goal: string;
  readonly value: number;
  /** The value and its target as printed, e.g. `11.4 ms (< 15 ms)`. */
  readonly measured: string;
  readonly met: boolean;
}

export function goal(name: string, value: number, target: Target): Goal {
  const { op, bound, unit = '', digits = 2 } = target;
  return {
    goal: name,
    value,
    measured: `${value.toFixed(digits)}${unit} (${op} ${bound}${unit})`,
    met: meets(value, op, bound),
  };
}

function meets(value: number, op: Comparison, bound: number): boolean {
  switch (op) {
    case '<':
      return value < bound;
    case '≤':
      return value <= bound;
    case '≥':
      return value >= bound;
    case '>':
      return value > bound;
    default: {
      const never: never = op;
      throw new Error(`unknown comparison ${String(never)}`);
    }
  }
}

const GOAL_COLUMNS: readonly Column[] = [
  { title: 'goal' },
  { title: 'measured', align: 'right' },
  { title: 'status' },
];

/** The goals as a table: `met` / `NOT MET` in plain text, `met` / `**not met**` in Markdown. */
export function goalTable(goals: readonly Goal[], format: 'text' | 'markdown'): string {
  if (format === 'text') {
    return textTable(
      GOAL_COLUMNS,
      goals.map((g) => [g.goal, g.measured, g.met ? 'met' : 'NOT MET']),
    );
  }
  return markdownTable(
    GOAL_COLUMNS,
    goals.map((g) => [g.goal, g.measured, g.met ? 'met' : '**not met**']),
  );
}
