/**
 * Element strings: group summaries in the present tense while a call is under way, and a
 * `labels` hook that translates every string the elements show (here into German), passed
 * from the timeline to its groups and rows.
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../elements/tool-timeline.js';
import {
  englishLabels,
  type ToolGroupElement,
  type ToolLabels,
  type ToolRowElement,
  type ToolTimelineElement,
} from '../../elements/classes.js';
import type { ToolCategory } from '../../src/tools/categories.js';
import { describe, it } from '../harness.js';
import { deepText, part, Session } from './session.js';

const german: ToolLabels = {
  stage: {
    preparing: 'Vorbereitung',
    start: 'Läuft',
    result: 'Fertig',
    failed: 'Fehlgeschlagen',
    cutOff: 'Abgeschnitten',
    needsApproval: 'Wartet auf Freigabe',
    denied: 'Abgelehnt',
  },
  category: {
    read: 'Lesen',
    read_image: 'Bild ansehen',
    write: 'Schreiben',
    edit: 'Bearbeiten',
    search: 'Suchen',
    web: 'Web',
    todo: 'Aufgaben',
    question: 'Frage',
    bash: 'Befehl',
    pwsh: 'PowerShell',
    run_code: 'Code ausführen',
    generic: 'Werkzeug',
  },
  block: {
    content: 'Inhalt',
    replace: 'Ersetze',
    with: 'Durch',
    patch: 'Patch',
    command: 'Kommando',
    code: 'Quelltext',
    arguments: 'Argumente',
    output: 'Ausgabe',
    error: 'Fehlermeldung',
    input: 'Eingabe',
  },
  cutNotice: (stopReason, size, freeForm) =>
    `Abgebrochen: ${stopReason === 'length' ? 'Token-Grenze der Antwort erreicht' : 'Antwort endete im Aufruf'}` +
    `${size === undefined ? '' : ` (${size} ${freeForm ? 'Eingabe' : 'Argumente'} angekommen)`}. Nicht ausgeführt.`,
  deniedNotice: (reason) =>
    reason ? `Abgelehnt: ${reason}. Nicht ausgeführt.` : 'Abgelehnt. Nicht ausgeführt.',
  approval: {
    question: 'Diesen Aufruf ausführen?',
    approving: 'Wird freigegeben…',
    denying: 'Wird abgelehnt…',
    approve: 'Freigeben',
    deny: 'Ablehnen',
    group: (title) => `Freigabe: ${title}`,
    approveCall: (title) => `${title} freigeben`,
    denyCall: (title) => `${title} ablehnen`,
  },
  provider: 'Anbieter',
  providerTitle: 'Vom Modellanbieter ausgeführt',
  outputNotShown: (reason) => `[Ausgabe nicht darstellbar: ${reason ?? 'kein JSON'}]`,
  codeIn: (language) => `Quelltext (${language})`,
  empty: (block) => `Kein(e) ${block}`,
  open: (path) => `${path} öffnen`,
  exitCode: (code) => `Rückgabewert ${code}`,
  showMore: 'Mehr zeigen',
  showLess: 'Weniger zeigen',
  todos: 'Aufgabenliste',
  todoStatus: (status) => ({ in_progress: 'in Arbeit', completed: 'erledigt' })[status] ?? status,
  failed: (count) => `${count} fehlgeschlagen`,
  inProgress: 'läuft',
  reasoning: 'Überlegung',
  summary(counts, running: ReadonlySet<ToolCategory>) {
    const words = counts.map(({ category, count }) => {
      const what = `${count} × ${german.category[category]}`;
      return running.has(category) ? `${what} (läuft)` : what;
    });
    return words.join(' · ');
  },
};

/** Every English string the elements could show for this session, from englishLabels. */
function englishStrings(): string[] {
  const { stage, block, showMore, showLess, reasoning } = englishLabels;
  return [
    ...Object.values(stage),
    ...Object.values(block),
    showMore,
    showLess,
    reasoning,
    'Read',
    'Write',
    'Bash',
    englishLabels.exitCode(1),
    englishLabels.failed(1),
    'in progress',
  ];
}

/** Reasoning, a finished read, a failed bash with a long output, and a write still streaming. */
function session(): Session {
  const output = Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n');
  return new Session()
    .push({
      type: 'stream/text-delta',
      attemptId: 'a1',
      block: 99,
      text: 'Ich schaue nach.',
      reasoning: true,
    })
    .call('c1', 'Read', { file_path: 'a.ts' })
    .result('c1', 'export {}')
    .call('c2', 'Bash', { description: 'Tests', command: 'npm test' })
    .result('c2', { stdout: output, exitCode: 1 }, true)
    .stream('c3', 'Write', '{"file_path":"b.ts","content":"export const b = 1;');
}

describe('group summaries while calls are under way', () => {
  // Failed before: "Wrote 1 file" while the write was preparing.
  it('speak in the present tense of a category with an unfinished call', async () => {
    const live = new Session()
      .call('c1', 'Read', { file_path: 'a.ts' })
      .result('c1', 'export {}')
      .stream('c2', 'Write', '{"file_path":"b.ts","content":"export const b');
    const group = await fixture<ToolGroupElement>(
      html`<tool-group .group=${live.group('c2')}></tool-group>`,
    );
    expect(part(group, 'summary')?.textContent).to.equal('Read 1 file · Writing 1 file…');
    expect(live.group('c2').summary, 'the Builder keeps its stage-free summary').to.equal(
      'Read 1 file · Wrote 1 file',
    );

    live.call('c2', 'Write', '{"file_path":"b.ts","content":"export const b = 1;"}');
    group.group = live.group('c2');
    await group.updateComplete;
    expect(part(group, 'summary')?.textContent).to.equal('Read 1 file · Writing 1 file…');

    live.result('c2', 'ok');
    group.group = live.group('c2');
    await group.updateComplete;
    expect(part(group, 'summary')?.textContent).to.equal('Read 1 file · Wrote 1 file');
    const list = group.shadowRoot?.querySelector('[part~="tools"]');
    expect(list?.getAttribute('aria-label')).to.equal('Read 1 file · Wrote 1 file');
  });
});

describe('labels: a second locale', () => {
  it('translates every string of the timeline, its groups and rows (German), and English stays the default', async () => {
    const timeline = await fixture<ToolTimelineElement>(
      html`<tool-timeline expand-groups .conversation=${session().publish()}></tool-timeline>`,
    );
    const group = timeline.shadowRoot?.querySelector('tool-group') as ToolGroupElement;
    await group.updateComplete;
    const rows = [...(group.shadowRoot?.querySelectorAll('tool-row') ?? [])] as ToolRowElement[];
    const bash = rows[1] as ToolRowElement;
    bash.expanded = true;
    await bash.updateComplete;
    const english = deepText(timeline);
    for (const text of ['Reasoning', 'Read', 'Failed', 'Preparing', 'Error', 'Show more']) {
      expect(english, 'English by default').to.contain(text);
    }
    expect(english).to.contain('Read 1 file · Ran 1 command · Writing 1 file…');

    timeline.labels = german;
    await timeline.updateComplete;
    await group.updateComplete;
    for (const row of rows) await row.updateComplete;
    const translated = deepText(timeline);
    for (const text of [
      'Überlegung',
      'Lesen',
      'Fehlgeschlagen',
      'Vorbereitung',
      'Fehlermeldung',
      'Mehr zeigen',
      'Rückgabewert 1',
      '1 fehlgeschlagen',
      '1 × Lesen · 1 × Befehl · 1 × Schreiben (läuft)',
    ]) {
      expect(translated).to.contain(text);
    }
    const left = englishStrings().filter((text) => new RegExp(`\\b${text}\\b`).test(translated));
    expect(left, 'English strings left after translation').to.deep.equal([]);
    expect(part(rows[0] as ToolRowElement, 'path')?.getAttribute('aria-label')).to.equal(
      'a.ts öffnen',
    );
  });

  it('a partial labels object keeps English for what it leaves out', async () => {
    const timeline = await fixture<ToolTimelineElement>(
      html`<tool-timeline
        expand-groups
        .labels=${{ stage: { preparing: 'En préparation' } }}
        .conversation=${session().publish()}
      ></tool-timeline>`,
    );
    const group = timeline.shadowRoot?.querySelector('tool-group') as ToolGroupElement;
    await group.updateComplete;
    for (const row of group.shadowRoot?.querySelectorAll('tool-row') ?? [])
      await (row as ToolRowElement).updateComplete;
    const text = deepText(timeline);
    expect(text).to.contain('En préparation');
    expect(text).to.contain('Failed');
    expect(text).to.contain('Read 1 file · Ran 1 command · Writing 1 file…');
  });
});

/**
 * Every English string of `englishLabels`, its functions called for the cases `shapes()`
 * shows: what must be gone from the German view.
 */
function everyEnglishString(): string[] {
  const strings: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string') strings.push(value);
    else if (value && typeof value === 'object')
      for (const item of Object.values(value)) visit(item);
  };
  visit(englishLabels);
  const { approval } = englishLabels;
  strings.push(
    englishLabels.cutNotice('length', '0.1 KiB', false),
    englishLabels.cutNotice('length', '0.0 KiB', true),
    englishLabels.deniedNotice(undefined),
    englishLabels.deniedNotice('too risky'),
    approval.group('Bash'),
    approval.approveCall('Bash'),
    approval.denyCall('Bash'),
    englishLabels.outputNotShown(undefined),
    'token limit',
    'Not run',
    'arrived',
    'output not shown',
  );
  // Category titles are often tool names too ("Bash", "Web"): the tools' own words stay.
  const titles = new Set(Object.values(englishLabels.category));
  return strings.filter((text) => !titles.has(text) && text.length > 1);
}

/** The text, accessible names and tooltips of a shadow tree, every nested one included. */
function deepTextAndNames(root: Element): string {
  const texts: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) texts.push(node.textContent ?? '');
    const element = node as Element;
    for (const name of ['aria-label', 'title']) {
      const value = element.getAttribute?.(name);
      if (value) texts.push(value);
    }
    if (element.shadowRoot) visit(element.shadowRoot);
    for (const child of node.childNodes) visit(child);
  };
  visit(root);
  return texts.join(' | ').replace(/\s+/g, ' ');
}

/** The newer call shapes in one group: approval asked and denied, provider-run, free-form, cut. */
function shapes(): Session {
  return new Session()
    .call('c1', 'Bash', { command: 'git push' })
    .approvalRequest('c1')
    .call('c2', 'Bash', { command: 'rm -rf dist' })
    .approvalRequest('c2')
    .approval('c2', false)
    .call('c3', 'Bash', { command: 'npm publish' })
    .approvalRequest('c3')
    .approval('c3', false, 'too risky')
    .providerCall('c4', 'web_search', { query: 'lit 3' }, [{ url: 'https://lit.dev' }])
    .freeFormCall('c5', 'code_exec', 'print(1)')
    .result('c5', { big: 1n })
    .delta('c6', '{"file_path":"a.ts","content":"export const', 'Write')
    .textDelta('c7', '*** Begin Patch\n*** Add File: b.ts\n+export', 'apply_patch')
    .cut('c6', 'Write', '{"file_path":"a.ts","content":"export const');
}

describe('labels: the newer call shapes', () => {
  // Failed before: they were English literals.
  it('translate cut-off, approval, denial, provider and free-form texts, and leave no English literal', async () => {
    const timeline = await fixture<ToolTimelineElement>(
      html`<tool-timeline expand-groups .conversation=${shapes().publish()}></tool-timeline>`,
    );
    const rowsOf = async () => {
      const groups = [...(timeline.shadowRoot?.querySelectorAll('tool-group') ?? [])];
      const rows: ToolRowElement[] = [];
      for (const group of groups as ToolGroupElement[]) {
        await group.updateComplete;
        rows.push(
          ...((group.shadowRoot?.querySelectorAll('tool-row') ?? []) as Iterable<ToolRowElement>),
        );
      }
      for (const row of rows) {
        row.expanded = true;
        await row.updateComplete;
      }
      return rows;
    };
    const rows = await rowsOf();
    expect(rows.map((row) => row.node?.callId).sort()).to.deep.equal([
      'c1',
      'c2',
      'c3',
      'c4',
      'c5',
      'c6',
      'c7',
    ]);
    const english = deepTextAndNames(timeline);
    for (const text of [
      'Needs approval',
      'Run this call?',
      'Approve Bash',
      'Deny Bash',
      'Approval: Bash',
      'Denied. Not run.',
      'Denied: too risky. Not run.',
      'provider',
      'Run by the model provider',
      'Input',
      '[output not shown:',
      'Cut off: the response reached its token limit (0.1 KiB of arguments arrived). Not run.',
    ]) {
      expect(english, 'English by default').to.contain(text);
    }

    timeline.labels = german;
    await timeline.updateComplete;
    await rowsOf();
    const translated = deepTextAndNames(timeline);
    for (const text of [
      'Wartet auf Freigabe',
      'Diesen Aufruf ausführen?',
      'Freigeben',
      'Ablehnen',
      'Befehl freigeben',
      'Befehl ablehnen',
      'Freigabe: Befehl',
      'Abgelehnt. Nicht ausgeführt.',
      'Abgelehnt: too risky. Nicht ausgeführt.',
      'Anbieter',
      'Vom Modellanbieter ausgeführt',
      'Eingabe',
      '[Ausgabe nicht darstellbar:',
      'Abgeschnitten',
      'Abgebrochen: Token-Grenze der Antwort erreicht (0.1 KiB Argumente angekommen). Nicht ausgeführt.',
    ]) {
      expect(translated).to.contain(text);
    }
    const left = everyEnglishString().filter((text) =>
      new RegExp(`(^|\\W)${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\W|$)`).test(translated),
    );
    expect(left, 'English strings left after translation').to.deep.equal([]);
  });
});
