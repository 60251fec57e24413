#!/usr/bin/env python3
"""Writes small.arpa, a random but well-formed trigram model (fixed seed),
and converts it to small.lm.bin with sphinxbase's sphinx_lm_convert (Debian
package sphinxbase-utils), the oracle of TestARPAMatchesTrie. Some trigrams
have no bigram for their last two words, so the trie needs blank entries."""
import random, subprocess

r = random.Random(12)
words = ['<s>', '</s>'] + ['w%d' % i for i in range(10)]
uni = []
for w in words:
    if w == '</s>':
        uni.append('%.4f </s>' % -r.uniform(0.3, 2))
    else:
        uni.append('%.4f %s %.4f' % (-99 if w == '<s>' else -r.uniform(0.3, 2), w, -r.uniform(0, 0.5)))
big = set()
while len(big) < 30:
    a = r.choice([w for w in words if w != '</s>'])
    b = r.choice([w for w in words if w != '<s>'])
    big.add((a, b))
big = sorted(big)
tri = set()
while len(tri) < 15:
    a, b = r.choice(big)
    if b == '</s>':
        continue
    tri.add((a, b, r.choice([w for w in words if w != '<s>'])))
tri = sorted(tri)
s = '\\data\\\nngram 1=%d\nngram 2=%d\nngram 3=%d\n\n\\1-grams:\n' % (len(words), len(big), len(tri))
s += '\n'.join(uni) + '\n\n\\2-grams:\n'
s += '\n'.join('%.4f %s %s %.4f' % (-r.uniform(0.1, 1), a, b, -r.uniform(0, 0.5)) for a, b in big) + '\n\n\\3-grams:\n'
s += '\n'.join('%.4f %s %s %s' % (-r.uniform(0.05, 0.8), a, b, c) for a, b, c in tri) + '\n\n\\end\\\n'
open('small.arpa', 'w').write(s)
subprocess.run(['sphinx_lm_convert', '-i', 'small.arpa', '-o', 'small.lm.bin', '-ofmt', 'bin'], check=True, capture_output=True)
