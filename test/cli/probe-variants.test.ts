import { expect } from 'chai';
import { type CliIo, main } from '../../src/cli/cli.js';
import { formatProgress } from '../../src/cli/probe/progress.js';
import {
  formatCell,
  formatProbeTable,
  type ProbeCell,
  type ProbeReport,
} from '../../src/cli/probe/report.js';
import { builtinVariant, variantNames } from '../../src/cli/probe/variants.js';
import { builtinTools } from '../../src/schema/builtin-tools.js';
import { describe, it } from '../harness.js';

const order = (tool: keyof typeof builtinTools, variant: (typeof variantNames)[number]) => {
  const { jsonSchema } = builtinVariant(tool, variant);
  return { properties: Object.keys(jsonSchema.properties), required: jsonSchema.required };
};

describe('probe variants', () => {
  it('bash: baseline puts command first; properties moves description alone; required moves both', () => {
    expect(order('bash', 'baseline')).to.deep.equal({
      properties: ['command', 'description', 'timeout'],
      required: ['command', 'description'],
    });
    expect(order('bash', 'properties')).to.deep.equal({
      properties: ['description', 'command', 'timeout'],
      required: ['command', 'description'],
    });
    expect(order('bash', 'required')).to.deep.equal({
      properties: ['description', 'command', 'timeout'],
      required: ['description', 'command'],
    });
    expect(builtinVariant('bash', 'sentence')).to.equal(builtinTools.bash);
  });

  it('drops the ordering sentence from every variant but the last', () => {
    for (const variant of ['baseline', 'properties', 'required'] as const) {
      for (const tool of ['bash', 'pwsh', 'run_code', 'write', 'edit'] as const) {
        const label = tool === 'write' || tool === 'edit' ? 'file_path' : 'description';
        const description = builtinVariant(tool, variant).jsonSchema.properties[label]?.description;
        expect(description, `${tool} ${variant}`).not.to.match(/Provide|arguments\.$/);
        expect(description, `${tool} ${variant}`).to.match(/\.$/);
      }
    }
    const bash = builtinVariant('bash', 'baseline').jsonSchema.properties.description?.description;
    expect(bash).to.equal(
      'A short description of what the command does, in 5–10 words, shown to the user while it runs.',
    );
  });

  it('moves the label field after the last required parameter in the baseline', () => {
    expect(order('run_code', 'baseline').properties).to.deep.equal([
      'language',
      'code',
      'description',
    ]);
    expect(order('write', 'baseline').properties).to.deep.equal(['content', 'file_path']);
    expect(order('edit', 'baseline')).to.deep.equal({
      properties: ['old_string', 'new_string', 'file_path', 'replace_all'],
      required: ['old_string', 'new_string', 'file_path'],
    });
    for (const variant of variantNames) {
      expect(order('read', variant).properties).to.deep.equal(['file_path', 'offset', 'limit']);
    }
  });
});

function cell(
  tool: ProbeCell['tool'],
  variant: ProbeCell['variant'],
  choice: ProbeCell['choice'],
  counts: Partial<ProbeCell>,
): ProbeCell {
  return {
    tool,
    variant,
    choice,
    label: tool === 'write' ? 'file_path' : 'description',
    requested: 20,
    done: 20,
    hits: 0,
    calls: 20,
    noCall: 0,
    errors: 0,
    firstKeys: {},
    samples: [],
    ...counts,
  };
}

describe('the probe table', () => {
  it('writes hits out of finished requests, then what was not a call', () => {
    expect(formatCell(cell('bash', 'baseline', 'free', { hits: 19 }))).to.equal('19/20');
    expect(
      formatCell(cell('bash', 'baseline', 'free', { hits: 3, noCall: 2, errors: 1 })),
    ).to.equal('3/20 (2 no call, 1 error)');
    expect(formatCell(cell('bash', 'baseline', 'free', { errors: 2, done: 5 }))).to.equal(
      '0/5 (2 errors)',
    );
  });

  it('has a row per variant and a column per tool and choice, like the seed', () => {
    const report = {
      provider: 'openai',
      model: 'deepseek-v4-flash',
      n: 20,
      tools: ['bash', 'write'],
      variants: ['baseline', 'sentence'],
      choices: ['free', 'forced'],
      cells: [
        cell('bash', 'baseline', 'free', { hits: 0 }),
        cell('bash', 'baseline', 'forced', { hits: 1 }),
        cell('write', 'baseline', 'free', { hits: 2 }),
        cell('write', 'baseline', 'forced', { hits: 3 }),
        cell('bash', 'sentence', 'free', { hits: 19 }),
        cell('bash', 'sentence', 'forced', { hits: 20 }),
        cell('write', 'sentence', 'free', { hits: 20, errors: 1, done: 20 }),
        cell('write', 'sentence', 'forced', { hits: 20 }),
      ],
    } as unknown as ProbeReport;
    expect(formatProbeTable(report)).to.equal(
      [
        'callfold probe: openai · deepseek-v4-flash · 20 requests per cell',
        'A cell counts the calls whose first argument key is the label field: description (bash), file_path (write).',
        '',
        '| Variant             | Change                                     | bash free | bash forced | write free      | write forced |',
        '|---------------------|--------------------------------------------|-----------|-------------|-----------------|--------------|',
        '| Baseline            | —                                          | 0/20      | 1/20        | 2/20            | 3/20         |',
        '| + ordering sentence | appends the ordering sentence to the label | 19/20     | 20/20       | 20/20 (1 error) | 20/20        |',
        '',
      ].join('\n'),
    );
  });

  it('draws a progress bar with what is running, retried and failed', () => {
    expect(formatProgress({ total: 8, done: 2, running: 3, retries: 1, errors: 0 }, 8)).to.equal(
      '▕██░░░░░░▏ 2/8 · 3 running · 1 retry',
    );
    expect(formatProgress({ total: 8, done: 8, running: 0, retries: 2, errors: 2 }, 4)).to.equal(
      '▕████▏ 8/8 · 2 retries · 2 errors',
    );
  });
});

function fakeIo(env: Record<string, string> = {}) {
  const io = {
    stdout: '',
    stderr: '',
    files: new Map<string, string>(),
  };
  const cli: CliIo = {
    env,
    stdout: (text) => {
      io.stdout += text;
    },
    stderr: (text) => {
      io.stderr += text;
    },
    writeFile: async (path, text) => {
      io.files.set(path, text);
    },
    fetch: () => Promise.reject(new Error('no request expected')),
  };
  return { io, cli };
}

describe('callfold probe: the command line', () => {
  it('prints its help with --help and -h', async () => {
    for (const flag of ['--help', '-h']) {
      const { io, cli } = fakeIo();
      expect(await main(['probe', flag], cli)).to.equal(0);
      expect(io.stdout).to.match(/^Usage: callfold probe --model NAME/);
      for (const option of [
        '--provider',
        '--base-url',
        '--model',
        '--n',
        '--concurrency',
        '--timeout',
        '--tools',
        '--variants',
        '--choice',
        '--report',
        '--key-env',
      ]) {
        expect(io.stdout).to.include(`  ${option} `);
      }
    }
    const { io, cli } = fakeIo();
    expect(await main([], cli)).to.equal(2);
    expect(io.stdout).to.match(/^Usage: callfold <command>/);
  });

  it('rejects bad options with a usage error (exit 2) before sending anything', async () => {
    const cases: [string[], RegExp][] = [
      [['probe'], /--model is required/],
      [['probe', '--model', 'm', '--provider', 'gemini'], /--provider must be openai or anthropic/],
      [['probe', '--model', 'm', '--tools', 'bash,grep'], /--tools: unknown "grep"/],
      [['probe', '--model', 'm', '--variants', 'baseline,best'], /--variants: unknown "best"/],
      [['probe', '--model', 'm', '--choice', 'any'], /--choice must be free, forced or both/],
      [['probe', '--model', 'm', '--n', '0'], /--n must be a whole number of at least 1/],
      [['probe', '--model', 'm', '--timeout', 'soon'], /--timeout must be a duration/],
      [['probe', '--model', 'm', '--verbose'], /unknown option --verbose/],
      [['probe', '--model'], /--model needs a value/],
      [['probe', '--model', 'm'], /set OPENAI_API_KEY to the API key/],
      [['probe', '--model', 'm', '--provider', 'anthropic'], /set ANTHROPIC_API_KEY/],
      [['probe', '--model', 'm', '--key-env', 'MY_KEY'], /set MY_KEY/],
    ];
    for (const [argv, message] of cases) {
      const { io, cli } = fakeIo();
      expect(await main(argv, cli), argv.join(' ')).to.equal(2);
      expect(io.stderr, argv.join(' ')).to.match(message);
      expect(io.stderr).to.include('Run "callfold probe --help" for usage.');
    }
  });

  it('rejects an unknown command', async () => {
    const { io, cli } = fakeIo();
    expect(await main(['bench'], cli)).to.equal(2);
    expect(io.stderr).to.match(/unknown command "bench"/);
  });
});
