#!/usr/bin/python3
"""Compiles every ```c block of the given Markdown files, so the examples in
README.md and docs/guides/ cannot drift from the headers.

A block is a complete translation unit unless an HTML comment on the line
right before it (invisible in the rendered page) says otherwise:

  <!-- snippet: body
  C declarations the block uses but does not show (optional lines)
  -->                 the block is the body of a function, after those lines
  <!-- snippet: file
  C lines put before the block (declarations of an imaginary SDK...)
  -->                 the block is a translation unit after those lines
  <!-- snippet: skip REASON -->   not compiled (say why)
  <!-- snippet: body -->          (or file) on one line: no lines before it

usage: check_snippets.py CC INCLUDE_DIR[:INCLUDE_DIR...] FILE.md...
Exit 0 when every block compiles (-Wall -Wextra -Werror, unused names
allowed), 1 otherwise; each failure prints the file, line and the
compiler's message."""
import re
import subprocess
import sys
import tempfile

BLOCK = re.compile(r'(?:<!-- snippet: (\w+)(?:([^\n]*?) -->\n|\n(.*?)-->\n))?^```c\n(.*?)^```',
                   re.S | re.M)
FLAGS = ['-std=gnu11', '-Wall', '-Wextra', '-Werror', '-Wno-unused-variable',
         '-Wno-unused-parameter', '-Wno-unused-function', '-Wno-unused-but-set-variable',
         '-Wno-missing-field-initializers', '-DCODEC_HAVE_REDIS=1', '-c', '-o', '/dev/null']
BODY_PRELUDE = ('#include <codec/codec.h>\n#include <stdio.h>\n#include <string.h>\n'
                '#include <stdlib.h>\n')


def unit(mode, prelude, code):
    if mode == 'body':
        return BODY_PRELUDE + 'void snippet(void);\nvoid snippet(void)\n{\n' + prelude + \
            code + '}\n'
    return prelude + code


def main(argv):
    cc, include, files = argv[1], argv[2], argv[3:]
    compiled = skipped = failed = 0
    for path in files:
        text = open(path, encoding='utf-8').read()
        for m in BLOCK.finditer(text):
            mode, rest, prelude, code = (m.group(1) or 'file', m.group(2) or '', m.group(3) or '',
                                         m.group(4))
            line = text.count('\n', 0, m.start(4))
            if mode == 'skip':
                if not rest.strip():
                    print('%s:%d: a skipped snippet must say why' % (path, line))
                    failed += 1
                skipped += 1
                continue
            if mode not in ('body', 'file'):
                print('%s:%d: unknown snippet mode %r' % (path, line, mode))
                failed += 1
                continue
            source = unit(mode, prelude, '#line %d "%s"\n' % (line + 1, path) + code)
            with tempfile.NamedTemporaryFile('w', suffix='.c') as f:
                f.write(source)
                f.flush()
                r = subprocess.run([cc] + ['-I' + d for d in include.split(':')] + FLAGS + [f.name],
                                   capture_output=True, text=True)
            compiled += 1
            if r.returncode != 0:
                failed += 1
                print('%s:%d: the C block does not compile:\n%s' % (path, line, r.stderr))
    print('%d C blocks compiled, %d skipped, %d failed' % (compiled, skipped, failed))
    return 1 if failed or compiled == 0 else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
