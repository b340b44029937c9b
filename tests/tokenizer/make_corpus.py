#!/usr/bin/env python3
# Writes corpus.jsonl, the texts tests/tokenizer/compare.mjs tokenizes with both our tokenizer and
# transformers.js: one JSON object per line, {"text": ...} or {"hex": ...} for bytes that are not
# valid UTF-8. Hand-picked cases first, then seeded random mixes (the seed is fixed so the
# committed file is reproducible: python3 tests/tokenizer/make_corpus.py > tests/tokenizer/corpus.jsonl).
import json
import random

LESSON = "今天天气不错，我们去公园"

hand = [
    # the lesson's probe, and Chinese
    LESSON, LESSON + "。", "我们去公园吧！", "门控线性单元（GLU）把一个向量分成两路。", "中文标点：，。！？；：“”‘’（）《》【】",
    "今天是2026年11月30日，气温15℃。", "你好，世界", "繁體中文與简体中文", "日本語のテキストです。", "한국어 문장입니다.",
    "零一二三四五六七八九十百千万亿", "「引号」和『书名号』", "一二三\n四五六", "  中文前有空格", "中文后有空格   ",
    # English, contractions (the pattern's (?i:'s|'t|...)), case
    "Hello, my dog is cute", "Hello world", "don't", "I'LL", "I'll", "She's here.", "we'VE been", "they'Re", "you'D",
    "I'M", "it's", "'s", "''", "'", "rock'n'roll", "O'Neil's", "can't won't shouldn't", "DON'T SHOUT",
    "The quick brown fox jumps over the lazy dog.", "ALL CAPS SENTENCE", "MixedCase CamelCaseWords snake_case_words",
    "e.g. i.e. etc.", "Mr. Smith went to Washington.", "hyphen-ated and em—dash and en–dash", "quotes \"double\" and 'single'",
    "ellipsis... and …", "a", "A", "ab", "I", "supercalifragilisticexpialidocious", "antidisestablishmentarianism",
    "Ünïcödé lättérs", "naïve café résumé", "Straße", "ǅungla",
    # mixed
    "SwiGLU 是一种门控激活函数", "Qwen3.5-0.8B 有 24 层", "hidden size 是 1024，intermediate size 是 3584",
    "用 Python 写 silu(z) = z * sigmoid(z)", "English中文English", "中文English中文", "价格：$12.50 或 ¥88",
    # code
    "def silu(z):\n    return z / (1.0 + math.exp(-z))\n",
    "for (int i = 0; i < n; ++i) {\n\tz[i] = u[i] * g[i];\n}\n",
    "#include <cstdio>\nint main() { std::printf(\"%d\\n\", 42); }",
    "{\"ids\": [1, 2, 3], \"pieces\": [\"a\", \"b\"]}", "<div class=\"x\">&nbsp;</div>", "SELECT * FROM t WHERE a >= 1;",
    "x += 1; y -= 2; z *= 3; w /= 4;", "if (a && b || !c) return;", "   indented(4)\n        indented(8)",
    "print('hello')  # comment", "const f = (a) => a ?? b;", "$ ls -la | grep .cpp", "a_b__c___d", "~!@#$%^&*()_+`-=[]\\{}|;':\",./<>?",
    "path/to/file.txt", "https://example.com/a?b=c&d=e#frag", "user@example.com", "C:\\Windows\\System32",
    # numbers
    "0", "1", "12", "123", "1234", "1234567890", "3.14159", "1,924,234", "-1.761594", "1e-3", "2^31-1 = 2147483647",
    "１２３４５", "٣٤٥", "१२३", "x² + y³", "Ⅻ", "½ ¾", "①②③", "0x7fffffff", "v1.2.3",
    # emoji and symbols
    "😀", "😀😀😀", "👨‍👩‍👧‍👦", "🇨🇳🇺🇸", "👍🏽", "1️⃣", "❤️", "I ❤ tokenizers 🚀", "∑ ∫ √ ∞ ≈ ≠ ≤ ≥", "→ ← ↑ ↓ ⇒",
    "©®™", "°C °F", "€£¥₹", "🀄🃏", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𠀀𠀁",
    # combining marks and normalization (NFC composes; the reference and we must agree)
    "e\u0301", "Cafe\u0301", "\u212b", "A\u030a", "\u1e9b\u0323", "\u1100\u1161\u11a8", "\ufb01", "o\u0308\u0304",
    "Vie\u0323\u0302t Nam", "\u0915\u094d\u0937", "\u0627\u064e\u0644", "\u0e01\u0e34", "n\u0303", "\u00c5", "\u2126",
    "\u0301", "\u0301\u0301", "a\u0301\u0302\u0303", "\u03d3", "\u1f71",
    # whitespace runs and newlines (the pattern's \s+(?!\S) and \s*[\r\n]+)
    "", " ", "  ", "   ", "\n", "\n\n", "\n\n\n", " \n ", "\t", "\t\t", "a  b", "a   b", "a   \n\n  b", "hello   ",
    "a\ufeffb", "\ufeffhello", "a\u0085b", "a\u180eb", "a\u200bb", "it'\u017f", "\u212a",
    "\r\n", "\r\n\r\n", "   leading", "a\tb", "a \tb", "a\u00a0b", "a\u3000b", "a\u2009b", "a\u2003\u2003b", "line1\nline2",
    "  \n  \n", "x\n", "\nx", " x ", "  x  ", "a\n \nb", "a\r\nb", "a\rb", "\u2028", "a\u2029b",
    # special and added tokens, matched before the model
    "<|im_start|>", "<|endoftext|>", "<|im_start|>user\n你好<|im_end|>\n<|im_start|>assistant\n",
    "<|endoftext|><|endoftext|>", "<think>\n\n</think>\n\n", "<|im_start", "<|im_start|", "< |im_start|>",
    "x<|im_end|>y", "<tool_call>{\"name\": \"f\"}</tool_call>", " <|im_start|> ", "<|fim_prefix|>a<|fim_suffix|>b<|fim_middle|>",
    "<|vision_start|><|image_pad|><|vision_end|>", "<<|im_start|>>", "<|im_start|><|im_start|>", "text<|endoftext|>text",
    # long
    " " * 300, "a" * 500, "1" * 200, LESSON * 20, "ab " * 200, "\n" * 100, "😀" * 50, "-" * 120, "=" * 64 + "\n",
]

invalid_hex = [
    "ff", "c3", "e4bd", "f09f98", "eda080", "c0af", "80", "61ff62", "f4908080", "e4bda0ff", "fe", "c328",
    "e6bb", "e4bda0e5a5bd" + "ff" + "e4b896e7958c", "3c7c696d5f7374617274ff7c3e", "20ff20", "ff0aff", "edbfbf",
    "f8888080", "e0808080",
]

def mixes(seed, count):
    pools = [
        "今天天气不错我们去公园门控线性单元向量", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789",
        " ", "  \n\t\r", ".,;:!?'\"()[]{}<>-_=+*/\\|@#$%^&~`", "éüñçßøåæœ", "😀🚀👍🏽❤️", "\u0301\u0308", "'s'll'VE'd't",
        "，。！？；：", "αβγδ ΑΒΓΔ", "абвгд АБВГД", "<|im_start|><|im_end|><|endoftext|>",
    ]
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        s = ""
        for _ in range(rng.randint(1, 12)):
            pool = rng.choice(pools)
            if pool.startswith("<|"):
                s += rng.choice(["<|im_start|>", "<|im_end|>", "<|endoftext|>"])
            elif pool.startswith("'s"):
                s += rng.choice(["'s", "'ll", "'VE", "'d", "'t", "'M", "'Re"])
            else:
                s += "".join(rng.choice(pool) for _ in range(rng.randint(1, 6)))
        out.append(s)
    return out

seen = set()
for s in hand + mixes(20261130, 200):
    if s in seen:
        continue
    seen.add(s)
    print(json.dumps({"text": s}, ensure_ascii=False))
for h in invalid_hex:
    print(json.dumps({"hex": h}))
