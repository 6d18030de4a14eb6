import type { CategoryCount, ToolCategory } from '../../src/index.js';
import { englishPhrase } from '../../src/internal-api.js';

/**
 * Every string the elements show or announce, so an embedder can translate them. Set
 * `labels` on a `<tool-timeline>`, `<tool-group>` or `<tool-row>` (the timeline passes it to
 * its groups, a group to its rows); what it leaves out stays English (`englishLabels`).
 * Texts from tools (names, arguments, outputs) are never translated.
 */
export interface ToolLabels {
  /**
   * A row's stage. A call its response was cut inside says `cutOff` instead, a denied call
   * `denied`, a call waiting for approval `needsApproval`.
   */
  readonly stage: {
    readonly preparing: string;
    readonly start: string;
    readonly result: string;
    readonly failed: string;
    readonly cutOff: string;
    readonly needsApproval: string;
    readonly denied: string;
  };
  /** Row titles by category ("Read", "Bash"); a generic tool is titled by its own name. */
  readonly category: { readonly [C in ToolCategory]: string };
  /** Labels of an expanded row's blocks. */
  readonly block: {
    readonly content: string;
    readonly replace: string;
    readonly with: string;
    readonly patch: string;
    readonly command: string;
    readonly code: string;
    readonly arguments: string;
    readonly output: string;
    readonly error: string;
    /** A free-form (`input: 'text'`) call's input, shown whole. */
    readonly input: string;
  };
  /**
   * The line under a row its response was cut inside: why, from the node's `stopReason`
   * (`'length'`, `'content-filter'`, `'pause'`, `'error'`, a provider's own word, or
   * undefined), and how much of the call had arrived (`size`, e.g. "3.0 KiB"; undefined when
   * nothing did) of its input (`freeForm`) or its arguments.
   */
  cutNotice(stopReason: string | undefined, size: string | undefined, freeForm: boolean): string;
  /** The line under a denied row; `reason` is the human's or the policy's, when given. */
  deniedNotice(reason: string | undefined): string;
  /** The approval controls of a call waiting for approval. */
  readonly approval: {
    /** The question beside the buttons. */
    readonly question: string;
    /** Shown once Approve was activated, until the node carries the answer. */
    readonly approving: string;
    /** Shown once Deny was activated, until the node carries the answer. */
    readonly denying: string;
    readonly approve: string;
    readonly deny: string;
    /** The controls' accessible name: "Approval: Bash". */
    group(title: string): string;
    /** The Approve button's accessible name: "Approve Bash". */
    approveCall(title: string): string;
    /** The Deny button's accessible name: "Deny Bash". */
    denyCall(title: string): string;
  };
  /** The marker of a call the provider ran (`executor: 'provider'`), and its tooltip. */
  readonly provider: string;
  readonly providerTitle: string;
  /** An output that cannot be shown as text (a cycle, a BigInt): `reason` from the engine. */
  outputNotShown(reason: string | undefined): string;
  /** The code block's label when the call names its language: "Code (python)". */
  codeIn(language: string): string;
  /** Shown in an empty block: "No output". */
  empty(block: string): string;
  /** The path button's accessible name: "Open src/app.ts". */
  open(path: string): string;
  /** A result's exit code: "exit 1". */
  exitCode(code: number): string;
  readonly showMore: string;
  readonly showLess: string;
  /** The todo list's accessible name. */
  readonly todos: string;
  /** A todo's status, announced after its text: "in progress". */
  todoStatus(status: string): string;
  /** A group's failed calls: "2 failed". */
  failed(count: number): string;
  /** Announced beside a group's activity dot. */
  readonly inProgress: string;
  /** The summary of an assistant response's reasoning. */
  readonly reasoning: string;
  /**
   * A group's header from its counts. `running` holds the categories with a call not
   * finished yet (preparing or running): those read in the present tense ("Writing 1 file…"),
   * the others in the past ("Read 3 files").
   */
  summary(counts: readonly CategoryCount[], running: ReadonlySet<ToolCategory>): string;
}

/** Present-tense phrases, `#` for the count, while a call of the category is not finished. */
const RUNNING: { readonly [C in ToolCategory]: readonly [one: string, many: string] } = {
  read: ['Reading 1 file', 'Reading # files'],
  read_image: ['Viewing 1 image', 'Viewing # images'],
  write: ['Writing 1 file', 'Writing # files'],
  edit: ['Editing 1 file', 'Editing # files'],
  search: ['Searching', 'Searching # times'],
  web: ['Making 1 web request', 'Making # web requests'],
  todo: ['Updating todos', 'Updating todos # times'],
  question: ['Asking 1 question', 'Asking # questions'],
  bash: ['Running 1 command', 'Running # commands'],
  pwsh: ['Running 1 PowerShell command', 'Running # PowerShell commands'],
  run_code: ['Running 1 code snippet', 'Running # code snippets'],
  generic: ['Using 1 tool', 'Using # tools'],
};

/** The English phrase of one count in the present tense: "Writing 1 file". */
export function englishRunningPhrase({ category, count }: CategoryCount): string {
  const [one, many] = RUNNING[category];
  return count === 1 ? one : many.replace('#', String(count));
}

/** Why a response stopped inside a call, from its `stopReason`, in English. */
function englishCutReason(stopReason: string | undefined): string {
  switch (stopReason) {
    case 'length':
      return 'the response reached its token limit';
    case 'content-filter':
      return 'the provider’s content filter stopped the response';
    case 'pause':
      return 'the provider paused the turn';
    case 'error':
      return 'the response ended with an error';
    case undefined:
    case '':
      return 'the response ended inside this call';
    default:
      return `the response ended (${stopReason})`;
  }
}

/** The default labels. */
export const englishLabels: ToolLabels = Object.freeze({
  stage: Object.freeze({
    preparing: 'Preparing',
    start: 'Running',
    result: 'Done',
    failed: 'Failed',
    cutOff: 'Cut off',
    needsApproval: 'Needs approval',
    denied: 'Denied',
  }),
  category: Object.freeze({
    read: 'Read',
    read_image: 'View image',
    write: 'Write',
    edit: 'Edit',
    search: 'Search',
    web: 'Web',
    todo: 'Todos',
    question: 'Question',
    bash: 'Bash',
    pwsh: 'PowerShell',
    run_code: 'Run code',
    generic: 'Tool',
  }),
  block: Object.freeze({
    content: 'Content',
    replace: 'Replace',
    with: 'With',
    patch: 'Patch',
    command: 'Command',
    code: 'Code',
    arguments: 'Arguments',
    output: 'Output',
    error: 'Error',
    input: 'Input',
  }),
  cutNotice(stopReason: string | undefined, size: string | undefined, freeForm: boolean): string {
    const arrived =
      size === undefined ? '' : ` (${size} of ${freeForm ? 'input' : 'arguments'} arrived)`;
    return `Cut off: ${englishCutReason(stopReason)}${arrived}. Not run.`;
  },
  deniedNotice: (reason: string | undefined) =>
    reason ? `Denied: ${reason}. Not run.` : 'Denied. Not run.',
  approval: Object.freeze({
    question: 'Run this call?',
    approving: 'Approving…',
    denying: 'Denying…',
    approve: 'Approve',
    deny: 'Deny',
    group: (title: string) => `Approval: ${title}`,
    approveCall: (title: string) => `Approve ${title}`,
    denyCall: (title: string) => `Deny ${title}`,
  }),
  provider: 'provider',
  providerTitle: 'Run by the model provider',
  outputNotShown: (reason: string | undefined) => `[output not shown: ${reason ?? 'not JSON'}]`,
  codeIn: (language: string) => `Code (${language})`,
  empty: (block: string) => `No ${block.toLowerCase()}`,
  open: (path: string) => `Open ${path}`,
  exitCode: (code: number) => `exit ${code}`,
  showMore: 'Show more',
  showLess: 'Show less',
  todos: 'Todos',
  todoStatus: (status: string) => status.replace('_', ' '),
  failed: (count: number) => `${count} failed`,
  inProgress: 'in progress',
  reasoning: 'Reasoning',
  summary(counts: readonly CategoryCount[], running: ReadonlySet<ToolCategory>): string {
    const text = counts
      .map((count) =>
        running.has(count.category) ? englishRunningPhrase(count) : englishPhrase(count),
      )
      .join(' · ');
    return running.size > 0 ? `${text}…` : text;
  },
});

/** `englishLabels` with the given labels over it (nested groups merged key by key). */
export function resolveLabels(labels: Partial<ToolLabels> | undefined): ToolLabels {
  if (labels === undefined) return englishLabels;
  return {
    ...englishLabels,
    ...labels,
    stage: { ...englishLabels.stage, ...labels.stage },
    category: { ...englishLabels.category, ...labels.category },
    block: { ...englishLabels.block, ...labels.block },
    approval: { ...englishLabels.approval, ...labels.approval },
  };
}
