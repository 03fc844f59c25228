import { describe, expect, it } from '@jest/globals'
import {
  clampText,
  codeBlock,
  codeSpan,
  enumText,
  escapeHtml,
  FORBIDDEN_OUTPUT_CHARS,
  htmlCode,
  longestRun,
  proofBlock,
  proseText,
  sanitizeText,
  trustedLink,
  wrapLine
} from '../../src/report/markdown-safe.js'
import { checkMarkdown, splitFences } from '../__fixtures__/hostile-strings.js'

describe('sanitizeText', () => {
  it.each([
    ['CRLF and CR become \\n', 'a\r\nb\rc', true, 'a\nb\nc'],
    ['line and paragraph separators become \\n', 'a\u2028b\u2029c\u0085d', true, 'a\nb\nc\nd'],
    ['single line: breaks become spaces', 'a\r\n\r\nb\nc', false, 'a b c'],
    ['tabs: four spaces in blocks', 'a\tb', true, 'a    b'],
    ['tabs: one space inline', 'a\tb', false, 'a b'],
    ['bidi controls shown by name', 'x\u202E\u2066y', false, 'x⟨U+202E⟩⟨U+2066⟩y'],
    ['zero-width characters shown by name', 'a\u200Bb\u200Dc\uFEFFd\u2060e', false, 'a⟨U+200B⟩b⟨U+200D⟩c⟨U+FEFF⟩d⟨U+2060⟩e'],
    ['C0 and C1 controls shown by name', 'a\u0000b\u001Bc\u007Fd\u009Be', false, 'a⟨U+0000⟩b⟨U+001B⟩c⟨U+007F⟩d⟨U+009B⟩e'],
    ['lone surrogates shown by name, pairs kept', 'a\uD800b\uDC00c😀', false, 'a⟨U+D800⟩b⟨U+DC00⟩c😀'],
    ['tag characters shown by name', `a${String.fromCodePoint(0xe0041, 0xe0042)}b`, false, 'a⟨U+E0041⟩⟨U+E0042⟩b'],
    ['a long run named four times, then counted', 'a' + '\u200B'.repeat(10) + 'b', false, 'a⟨U+200B⟩⟨U+200B⟩⟨U+200B⟩⟨U+200B⟩⟨+6 more⟩b'],
    ['emoji variation selector kept', '❤\uFE0F', false, '❤\uFE0F'],
    ['combining piles cut to four marks', `e${'\u0301'.repeat(10)}`, false, `e${'\u0301'.repeat(4)}`],
    ['plain text unchanged', 'Hello, world: <ok> & "fine"', false, 'Hello, world: <ok> & "fine"']
  ])('%s', (_name, input, multiline, expected) => {
    expect(sanitizeText(input, multiline)).toBe(expected)
    expect(FORBIDDEN_OUTPUT_CHARS.test(sanitizeText(input, multiline))).toBe(false)
  })
})

describe('clampText', () => {
  it.each([
    ['short text unchanged', 'abc', 5, 'abc', 0],
    ['cut to the limit', 'abcdef', 4, 'abcd', 2],
    ['never splits a surrogate pair', 'ab😀cd', 3, 'ab', 4],
    ['zero', 'abc', 0, '', 3]
  ])('%s', (_name, text, max, expected, cut) => {
    expect(clampText(text, max)).toEqual({ text: expected, cut })
  })
})

describe('longestRun', () => {
  it.each([
    ['', 0],
    ['a`b', 1],
    ['``a```b`', 3]
  ])('%p has a longest backtick run of %i', (text, n) => {
    expect(longestRun(text, '`')).toBe(n)
  })
})

describe('codeSpan', () => {
  it.each([
    ['plain', 'abc', {}, '`abc`'],
    ['html stays literal in code', '<b>@x</b>', {}, '`<b>@x</b>`'],
    ['fence longer than any run inside, padded at a backtick end', 'a `b` ``c``', {}, '``` a `b` ``c`` ```'],
    ['padded when starting with a backtick', '`x', {}, '`` `x ``'],
    ['padded when ending with a backtick', 'x`', {}, '`` x` ``'],
    ['padded when both ends are spaces', ' x ', {}, '`  x  `'],
    ['one space at one end is not padded', ' x', {}, '` x`'],
    ['line breaks become spaces', 'a\nb', {}, '`a b`'],
    ['pipes escaped in table cells', 'a|b', { table: true }, '`a\\|b`'],
    ['pipes kept outside tables', 'a|b', {}, '`a|b`'],
    ['empty', '', {}, '*(empty)*'],
    ['clamped, with a trusted note', 'abcdef', { max: 3 }, '`abc` …(+3 characters)']
  ])('%s', (_name, text, opts, expected) => {
    expect(codeSpan(text, opts)).toBe(expected)
  })

  it('the fence is longer than any backtick run in the text', () => {
    const span = codeSpan('x ``````` y')
    expect(span.startsWith('````````x')).toBe(true)
    expect(span.endsWith('y````````')).toBe(true)
  })
})

describe('codeBlock', () => {
  const opts = { maxChars: 10_000, maxLineChars: 1000 }

  it('uses a fence of at least three backticks, longer than any run inside', () => {
    expect(codeBlock('hello', opts)).toBe('```text\nhello\n```')
    expect(codeBlock('a\n```\nb', opts)).toBe('````text\na\n```\nb\n````')
    expect(codeBlock('``````', opts).startsWith('```````text\n')).toBe(true)
  })

  it.each([
    ['closing fence inside', 'x\n```\n</details>\n```\ny'],
    ['tilde fence inside', '~~~\nx\n~~~~'],
    ['indented fence inside', '   ```\n  ````'],
    ['only backticks', '`````']
  ])('no line of the text closes the block: %s', (_name, text) => {
    const md = codeBlock(text, opts)
    const split = splitFences(md)
    expect(split.problems).toEqual([])
    expect(split.fences).toBe(1)
    expect(split.outside.every((l) => l === '')).toBe(true)
  })

  it('clamps the text, each line and the number of lines, and says so after the block', () => {
    const md = codeBlock(`${'x'.repeat(50)}\nshort\n${'y'.repeat(10)}\nz`, { maxChars: 65, maxLineChars: 20, maxLines: 2 })
    expect(md).toBe(`\`\`\`text\n${'x'.repeat(20)} …\nshort\n\`\`\`\n\n*Cut: 4 more characters, 1 more line, 30 characters of long lines.*`)
  })

  it('keeps line breaks and removes control characters', () => {
    expect(codeBlock('a\r\nb\u202Ec\u0000', opts)).toBe('```text\na\nb⟨U+202E⟩c⟨U+0000⟩\n```')
  })
})

describe('proseText', () => {
  it.each([
    ['plain words stay readable', 'run cancelled at timeout', 'run cancelled at timeout'],
    ['html escaped', '<b>x</b> & y', '&lt;b&gt;x&lt;/b&gt; &amp; y'],
    ['mention neutralised (an entity would still render as a mention)', '@octocat @org/team', '＠octocat ＠org/team'],
    ['issue references neutralised', 'see #12 and # heading', 'see `#12` and \\# heading'],
    ['GH- references neutralised', 'GH-45 and gh-1 but GH-x', 'GH\u201145 and gh\u20111 but GH\\-x'],
    ['urls defanged', 'https://evil.example and www.evil.example', 'https\\[:\\]//evil.example and www\\[.\\]evil.example'],
    ['link syntax escaped', '![x](y) [a](b)', '\\!\\[x\\]\\(y\\) \\[a\\]\\(b\\)'],
    ['emphasis and code escaped', '*a* _b_ `c` ~d~', '\\*a\\* \\_b\\_ \\`c\\` \\~d\\~'],
    ['block markers escaped', '# h - + = 1. x', '\\# h \\- \\+ \\= 1\\. x'],
    ['math escaped', '$x$', '\\$x\\$'],
    ['pipes escaped', 'a | b', 'a \\| b'],
    ['line breaks flattened', 'a\n\n# b', 'a \\# b'],
    ['backslash escaped', 'a\\b', 'a\\\\b'],
    ['clamped', 'abcdef', 'abc …', 3]
  ] as const)('%s', (_name, text, expected, ...rest: number[]) => {
    // (a rest parameter: jest would take a fourth declared parameter for a done callback)
    const max = rest[0]
    expect(proseText(text, max)).toBe(expected)
  })

  it('passes the markdown checker for hostile inputs', () => {
    for (const t of ['@a', '<script>', '[a](http://b)', '![i](x)', 'www.x.y', 'a@b.example', '#1', '<http://x>', '`@x`']) {
      expect(checkMarkdown(`- ${proseText(t)}`)).toEqual([])
    }
  })
})

describe('htmlCode and escapeHtml', () => {
  it.each([
    ['plain', 'atk1', '<code>atk1</code>'],
    ['markdown punctuation as entities', 'atk_1 [x](y)\\', '<code>atk&#95;1 &#91;x&#93;&#40;y&#41;&#92;</code>'],
    ['escaped', '<b a="1">\'&', '<code>&lt;b a=&quot;1&quot;&gt;&#39;&amp;</code>'],
    ['one line', 'a\n\nb', '<code>a b</code>'],
    ['empty', '', '<i>(empty)</i>']
  ])('%s', (_name, text, expected) => {
    expect(htmlCode(text)).toBe(expected)
  })

  it('escapeHtml escapes the five characters', () => {
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;')
  })
})

describe('enumText and trustedLink', () => {
  it('shows known enum values plainly and anything else as code', () => {
    expect(enumText('open', ['open', 'fixed'])).toBe('open')
    expect(enumText('<b>', ['open'])).toBe('`<b>`')
    expect(enumText(null, ['open'])).toBe('–')
  })

  it.each([
    ['https://github.com/o/r/actions/runs/1', '[run](https://github.com/o/r/actions/runs/1)'],
    ['http://ghe.local/o/r/actions/runs/1?x=1', '[run](http://ghe.local/o/r/actions/runs/1?x=1)'],
    ['javascript:alert(1)', null],
    ['https://x.example/a)(b', null],
    ['https://x.example/a b', null],
    ['', null],
    [null, null]
  ])('trustedLink(%p)', (url, expected) => {
    expect(trustedLink('run', url)).toBe(expected)
  })
})

describe('wrapLine', () => {
  it.each([
    ['short line kept', 'abc', 10, ['abc']],
    ['wraps at the last space in the last quarter', 'aaaa bbbb cccc dddd', 10, ['aaaa bbbb', 'cccc dddd']],
    ['cuts a word longer than the width', 'x'.repeat(25), 10, ['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]],
    ['never splits a surrogate pair', `${'a'.repeat(9)}😀b`, 10, ['a'.repeat(9), '😀b']]
  ] as const)('%s', (_name, line, width, expected) => {
    expect(wrapLine(line, width)).toEqual(expected)
  })
})

describe('proofBlock', () => {
  const opts = { width: 40, maxChars: 10_000, maxLines: 100 }
  it('labels each section and wraps every line to the width', () => {
    const out = proofBlock(
      [
        { label: '→ prompt', text: 'word '.repeat(30) },
        { label: '← reply', text: 'x'.repeat(100) }
      ],
      opts
    )
    const lines = out.split('\n')
    expect(lines[0]).toBe('```text')
    expect(lines[1]).toBe('→ prompt')
    expect(lines.every((l) => l.length <= 40)).toBe(true)
    expect(lines).toContain('← reply')
  })

  it('says what was cut, and no backtick run inside can close the fence', () => {
    const out = proofBlock([{ label: 'x', text: `\`\`\`\n${'line\n'.repeat(50)}` }], { width: 40, maxChars: 100, maxLines: 5 })
    expect(out.startsWith('````text\n')).toBe(true)
    expect(out).toMatch(/… \(\d+ more lines, \d+ more characters in the full data\)/)
    expect(splitFences(out).problems).toEqual([])
  })
})
