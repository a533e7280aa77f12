import { describe, expect, it } from 'vitest';
import { stripMdx } from './mdx.js';

/** Lines of the stripped source; also asserts the line count was kept. */
function strip(source: string): string[] {
  const result = stripMdx(source);
  expect(result.split('\n')).toHaveLength(source.split(/\r?\n/).length);
  return result.split('\n');
}

describe('stripMdx', () => {
  it('removes single- and multi-line ESM imports and exports', () => {
    const source = [
      "import Tabs from '@theme/Tabs';",
      "import { Callout, type Props } from 'components';",
      'import {',
      '  Card,',
      '  CardGroup,',
      "} from '@/components/cards';",
      "import './styles.css'",
      'export const meta = {',
      "  title: 'Hello',",
      '};',
      'export default function Layout({ children }) {',
      '  const x = 1;',
      '',
      '  return <div>{children}</div>;',
      '}',
      '',
      '# Title',
      '',
      'import the module before use, export the results.',
    ].join('\n');
    const lines = strip(source);
    expect(lines.slice(0, 16).every((line) => line === '')).toBe(true);
    expect(lines[16]).toBe('# Title');
    expect(lines[18]).toBe('import the module before use, export the results.');
  });

  it('removes component tag lines, including multi-line tags, and keeps the markdown between them', () => {
    const source = [
      '<Tabs groupId="pm" items={["npm", "pnpm"]}>',
      '<Tab>',
      'Install with **npm**:',
      '</Tab>',
      '<Callout type="warning">',
      'Careful > here.',
      '</Callout>',
      '<Image src="/a.png" alt="A" />',
      '<Card',
      '  href="/docs/x"',
      '  icon={<Icon name="x" />}',
      '>',
      'Card body',
      '</Card>',
      '<>',
      '</>',
      '</Tabs>',
    ].join('\n');
    expect(strip(source)).toEqual([
      '',
      '',
      'Install with **npm**:',
      '',
      '',
      'Careful > here.',
      '',
      '',
      '',
      '',
      '',
      '',
      'Card body',
      '',
      '',
      '',
      '',
    ]);
  });

  it('keeps a component title or label as text', () => {
    expect(strip('<Step title="Install the skill">\n\nBody\n</Step>')).toEqual(['Install the skill', '', 'Body', '']);
    expect(strip('<TabItem value="yarn" label="Yarn">')).toEqual(['Yarn']);
  });

  it('strips inline tags in a paragraph line but keeps their text', () => {
    expect(strip('Run <Npm>pnpm add zod</Npm> now.')).toEqual(['Run pnpm add zod now.']);
    expect(strip('Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to re<b>use</b> it.')).toEqual(['Press Ctrl+C to reuse it.']);
    expect(strip('one<br/>two')).toEqual(['one two']);
    expect(strip('<summary>Show the example</summary>')).toEqual(['Show the example']);
    expect(strip('## `vi.fn` <Badge type="tip">3.0</Badge>')).toEqual(['## `vi.fn` 3.0']);
  });

  it('removes MDX comments, HTML comments and script/style bodies', () => {
    expect(strip('Before {/* note */} after')).toEqual(['Before  after']);
    expect(strip('{/* a\nmulti-line\ncomment */}\nText')).toEqual(['', '', '', 'Text']);
    expect(strip('<!-- prettier-ignore -->\nText <!-- inline --> more\n<!--\nblock\n-->')).toEqual([
      '',
      'Text  more',
      '',
      '',
      '',
    ]);
    expect(strip('<script setup>\nimport { ref } from "vue"\nconst n = ref(0)\n</script>\nText')).toEqual([
      '',
      '',
      '',
      '',
      'Text',
    ]);
  });

  it('never touches fenced code blocks', () => {
    const source = [
      '```tsx',
      "import { Tabs } from 'x';",
      '<Tabs>',
      '{/* kept */}',
      '::: tip',
      '```',
      '~~~~md',
      '```',
      'export const a = 1;',
      '```',
      '<Callout>',
      '~~~~',
      '1. Step',
      '',
      '   ```js',
      '   <Tab>',
      '   ```',
      '- ```html',
      '  <div>hi</div>',
      '  ```',
      '> ```',
      '> <Quote />',
      '> ```',
    ].join('\n');
    expect(strip(source)).toEqual(source.split('\n'));
  });

  it('strips around code fences without eating them', () => {
    const source = ['<Section>', '```ts', 'const x = <T,>() => 1;', '```', '</Section>'].join('\n');
    expect(strip(source)).toEqual(['', '```ts', 'const x = <T,>() => 1;', '```', '']);
  });

  it('leaves code spans, autolinks, comparisons and escaped brackets alone', () => {
    for (const line of [
      'Use the `<Tabs>` component and ``{/* x */}``.',
      'See <https://example.com/a> or <user@example.com>.',
      'If a < b and c > d then.',
      'Escaped \\<Tabs> stays.',
      '{props.value} and {{ $frontmatter.title }}',
    ]) {
      expect(strip(line)).toEqual([line]);
    }
  });

  it('drops container markers and keeps their titles', () => {
    const source = [
      '::: tip',
      'Tip body',
      ':::',
      '::: warning Deprecated',
      ':::info[More examples]',
      '::: details Example {open}',
      '::::code-group',
      '::::',
      '/// note | Technical Details',
      'Note body',
      '///',
      '//// tab | Python 3.10+',
      '/// not a block marker',
    ].join('\n');
    expect(strip(source)).toEqual([
      '',
      'Tip body',
      '',
      'Deprecated',
      'More examples',
      'Example',
      '',
      '',
      'Technical Details',
      'Note body',
      '',
      'Python 3.10+',
      '/// not a block marker',
    ]);
  });

  it('normalises CRLF and keeps the line count', () => {
    expect(stripMdx("import A from 'a';\r\n\r\n<A />\r\nText\r\n")).toBe('\n\n\nText\n');
  });
});
