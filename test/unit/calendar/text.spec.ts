import { ConflictError } from '../../../src/errors/app-error';
import { escHtml, removeAccents, renderContent, renderTitle, sanitizeTitle, uniqueSlug, wpautop, wptexturize } from '../../../src/services/calendar/text';

describe('wptexturize', () => {
  it.each([
    ["It's a party", 'It&#8217;s a party'],
    ["Rock 'n' roll", 'Rock &#8216;n&#8217; roll'], // what WordPress prints: an opening quote after a space
    ['"Quoted" words', '&#8220;Quoted&#8221; words'],
    ["She said 'hi' (twice)", 'She said &#8216;hi&#8217; (twice)'],
    ["Back in '99", 'Back in &#8217;99'],
    ["the '90s", 'the &#8217;90s'],
    ['10 - 12 May', '10 &#8211; 12 May'],
    ['pages 10--12', 'pages 10&#8211;12'],
    ['wait -- what', 'wait &#8212; what'],
    ['and---then', 'and&#8212;then'],
    ['Wait...', 'Wait&#8230;'],
    ['Tom & Jerry', 'Tom &#038; Jerry'],
    ['Tom &amp; Jerry', 'Tom &amp; Jerry'],
    ['a 4x4 grid', 'a 4&#215;4 grid'],
    ["'tis the season", '&#8217;tis the season'], // WordPress' fixed list of leading apostrophes (case-sensitive)
    ["'Tis the season", '&#8216;Tis the season'],
  ])('%j → %j', (input, expected) => {
    expect(wptexturize(input)).toBe(expected);
  });

  it('leaves tags, attributes and code alone', () => {
    expect(wptexturize('<a href="x\'y">It\'s</a>')).toBe('<a href="x\'y">It&#8217;s</a>');
    expect(wptexturize("<code>it's -- raw</code> it's")).toBe("<code>it's -- raw</code> it&#8217;s");
    expect(wptexturize('<pre>"a"...</pre>"b"')).toBe('<pre>"a"...</pre>&#8220;b&#8221;');
  });
});

describe('wpautop', () => {
  it('wraps paragraphs and turns single newlines into <br />', () => {
    expect(wpautop('First line\nsecond line\n\nSecond paragraph')).toBe('<p>First line<br />\nsecond line</p>\n<p>Second paragraph</p>\n');
  });

  it('handles Windows newlines and extra blank lines', () => {
    expect(wpautop('One\r\n\r\n\r\n\r\nTwo\r\n')).toBe('<p>One</p>\n<p>Two</p>\n');
  });

  it('leaves block elements unwrapped', () => {
    expect(wpautop('Intro\n\n<ul>\n<li>One</li>\n<li>Two</li>\n</ul>\n\nOutro')).toBe('<p>Intro</p>\n<ul>\n<li>One</li>\n<li>Two</li>\n</ul>\n<p>Outro</p>\n');
    expect(wpautop('<h2>Title</h2>\nText')).toBe('<h2>Title</h2>\n<p>Text</p>\n');
    expect(wpautop('<div>Hello</div>')).toBe('<div>Hello</div>\n');
  });

  it('keeps inline markup inside the paragraph', () => {
    expect(wpautop('Some <strong>bold</strong> and <a href="/x">a link</a>')).toBe('<p>Some <strong>bold</strong> and <a href="/x">a link</a></p>\n');
  });

  it('keeps <pre> bodies as written', () => {
    expect(wpautop('Code:\n\n<pre>a\n\nb</pre>')).toBe('<p>Code:</p>\n<pre>a\n\nb</pre>\n');
  });

  it('gives nothing for blank input', () => {
    expect(wpautop('')).toBe('');
    expect(wpautop(' \n\n ')).toBe('');
  });
});

describe('rendered title and description (what the REST answer shows)', () => {
  it('texturizes and trims a title', () => {
    expect(renderTitle("  Rock 'n' roll night -- live!  ")).toBe('Rock &#8216;n&#8217; roll night &#8212; live!');
  });

  it('texturizes, paragraphs and trims a description', () => {
    expect(renderContent("Doors open at 6pm.\nDon't be late...\n\nBring friends - it's free!\n")).toBe(
      '<p>Doors open at 6pm.<br />\nDon&#8217;t be late&#8230;</p>\n<p>Bring friends &#8211; it&#8217;s free!</p>',
    );
    expect(renderContent('')).toBe('');
  });
});

describe('slugs', () => {
  it.each([
    ['Hello World!', 'hello-world'],
    ["Rock 'n' roll", 'rock-n-roll'],
    ['Café Über Straße', 'cafe-uber-strasse'],
    ['Søren Kierkegaard Ærø', 'soren-kierkegaard-aero'],
    ['  --Spaces   and -- dashes--  ', 'spaces-and-dashes'],
    ['Version 2.0', 'version-2-0'],
    ['Tom &amp; Jerry', 'tom-jerry'],
    ['<b>Bold</b> move', 'bold-move'],
    ['Jazz – Night', 'jazz-night'],
    ['“Quoted” title', 'quoted-title'],
    ['100% fun', '100-fun'],
    ['中文', '%e4%b8%ad%e6%96%87'],
    ['!!!', ''],
  ])('sanitizeTitle(%j) = %j', (title, slug) => {
    expect(sanitizeTitle(title)).toBe(slug);
  });

  it('removes accents but keeps other scripts', () => {
    expect(removeAccents('Ångström naïve façade')).toBe('Angstrom naive facade');
    expect(removeAccents('Привет')).toBe('Привет');
  });

  it('caps slugs at 200 characters', () => {
    expect(sanitizeTitle('a'.repeat(300))).toHaveLength(200);
  });

  it('adds -2, -3 … until a slug is free', async () => {
    const used = new Set(['party', 'party-2', 'party-3']);
    expect(await uniqueSlug('party', (s) => used.has(s))).toBe('party-4');
    expect(await uniqueSlug('picnic', (s) => used.has(s))).toBe('picnic');
    expect(await uniqueSlug('party', async (s) => used.has(s))).toBe('party-4');
  });

  it('keeps the suffixed slug within 200 characters', async () => {
    const long = 'b'.repeat(200);
    const slug = await uniqueSlug(long, (s) => s === long);
    expect(slug).toBe(`${'b'.repeat(198)}-2`);
  });

  it('gives up with a conflict instead of looping forever', async () => {
    await expect(uniqueSlug('x', () => true, 5)).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('escHtml', () => {
  it('escapes a website URL as WordPress shows it', () => {
    expect(escHtml('https://example.com/?a=1&b=2')).toBe('https://example.com/?a=1&amp;b=2');
    expect(escHtml('https://example.com/?q="x"<y>\'')).toBe('https://example.com/?q=&quot;x&quot;&lt;y&gt;&#039;');
  });

  it('does not double-encode entities', () => {
    expect(escHtml('a &amp; b &#038; c')).toBe('a &amp; b &#038; c');
    expect(escHtml(null)).toBe('');
  });
});
