# The native front ends over the core (not the Emscripten or fuzz builds): the CLI `swiglu`
# (hand calculation, packs, tokenize), the synthetic checkpoint tool, the default pack the page
# serves, and the benchmarks that print tables (docs/checkpoint.md, README "Tokenizer").

# The byte seam over directories, for the CLI and the tools.
add_library(swiglu_native_io STATIC src/platform/native/dir_files.cpp)
target_link_libraries(swiglu_native_io PUBLIC swiglu_core)

# [SECTION] the tokenizer: byte-level BPE over a Hugging Face tokenizer.json (src/core/tokenizer/),
# with Debian's PCRE2 and utf8proc.
find_package(PkgConfig REQUIRED)
pkg_check_modules(SWIGLU_TOK_DEPS REQUIRED IMPORTED_TARGET libpcre2-8 libutf8proc)
add_library(swiglu_tokenizer STATIC ${SWIGLU_TOKENIZER_SOURCES})  # listed in CMakeLists.txt
target_include_directories(swiglu_tokenizer PUBLIC src PRIVATE ${SYS_LINK_DIR})
target_link_libraries(swiglu_tokenizer PRIVATE PkgConfig::SWIGLU_TOK_DEPS)

# [SECTION] the whole model's host (core/model/model_host.h: the loader, the forward pass and the
# model's own tokenizer): the page's model worker has it in wasm (cmake/model_worker.cmake);
# natively the CLI (swiglu forward) and the tests.
add_library(swiglu_model_host STATIC src/core/model/model_host.cpp src/core/model/model_service_local.cpp)
target_link_libraries(swiglu_model_host PUBLIC swiglu_tokenizer swiglu_core)

# [SECTION] the command-line tool
add_executable(swiglu tools/cli/swiglu_cli.cpp tools/cli/cmd_pack.cpp tools/cli/cmd_tokenize.cpp tools/cli/cmd_forward.cpp tools/cli/cmd_answers.cpp tools/cli/cli_model.cpp
  tools/cli/cli_args.cpp)
target_link_libraries(swiglu PRIVATE swiglu_native_io swiglu_tokenizer swiglu_model_host swiglu_fetch_twin)
target_include_directories(swiglu PRIVATE tools/cli ${SYS_LINK_DIR})

add_executable(make_checkpoint tools/make_checkpoint.cpp tools/cli/cli_args.cpp)
target_link_libraries(make_checkpoint PRIVATE swiglu_native_io)
target_include_directories(make_checkpoint PRIVATE tools)

# [SECTION] the embedded default: a synthetic Qwen3.5-0.8B-shaped checkpoint (layers 0, 11, 23)
# and the pack converted from it with the lesson's 6-token probe. Built, never committed.
set(DEFAULT_CKPT ${CMAKE_BINARY_DIR}/default-checkpoint)
set(DEFAULT_PACK ${CMAKE_BINARY_DIR}/packs/default)
add_custom_command(OUTPUT ${DEFAULT_CKPT}/config.json
  COMMAND make_checkpoint --out ${DEFAULT_CKPT}
  DEPENDS make_checkpoint
  COMMENT "Writing the synthetic Qwen3.5-0.8B-shaped checkpoint" VERBATIM)
add_custom_command(OUTPUT ${DEFAULT_PACK}/manifest.json
  COMMAND swiglu convert --checkpoint ${DEFAULT_CKPT} --out ${DEFAULT_PACK} --layers 0,11,23
          --tokens 1,2,3,4,5,6 --label "今天天气不错，我们去公园" --pieces "今天|天气|不错|，|我们|去公园"
          > ${CMAKE_BINARY_DIR}/default-pack-convert.txt
  DEPENDS swiglu ${DEFAULT_CKPT}/config.json
  COMMENT "Converting the default pack (layers 0, 11, 23; the lesson's 6-token probe)" VERBATIM)
add_custom_target(default_pack ALL DEPENDS ${DEFAULT_PACK}/manifest.json)
# The page serves it beside itself (site/packs/default/): the embedded default, no download.
set(SWIGLU_WASM_DIR "" CACHE PATH "an Emscripten build of this project; enables the wasm and browser tests")
if(SWIGLU_WASM_DIR)
  add_custom_command(TARGET default_pack POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${DEFAULT_PACK} ${SWIGLU_WASM_DIR}/site/packs/default
    COMMENT "Copying the default pack into the site" VERBATIM)
endif()

# The default whole model: a toy-width Qwen3.5-layout checkpoint with the lessons'
# rules planted (synthetic_model.h), for the rule book and the flow offline; served beside the
# page as site/models/synthetic/, read by the model worker as any checkpoint is.
set(DEFAULT_MODEL ${CMAKE_BINARY_DIR}/models/synthetic)
add_custom_command(OUTPUT ${DEFAULT_MODEL}/config.json
  COMMAND make_checkpoint --out ${DEFAULT_MODEL} --whole planted
  DEPENDS make_checkpoint
  COMMENT "Writing the default whole model (synthetic, the lessons' rules planted)" VERBATIM)
# Its answers to the lessons' first questions, which the page shows at once while the model loads
# (core/experiments/precomputed_answers.h).
add_custom_command(OUTPUT ${DEFAULT_MODEL}/answers.txt
  COMMAND swiglu answers ${DEFAULT_MODEL} > ${DEFAULT_MODEL}/answers.txt
  DEPENDS swiglu ${DEFAULT_MODEL}/config.json
  COMMENT "Precomputing the default whole model's answers to the lessons' first questions" VERBATIM)
# Its files' brotli and gzip twins: the page asks for the 2.4 MB shard whole (tensor_fetch.h), and
# a host that has them sends 1.7 MB (brotli) instead, 4 s less on fast 3G.
set(DEFAULT_MODEL_SHARD model.safetensors-00001-of-00001.safetensors)
set(DEFAULT_MODEL_TWINS ${DEFAULT_MODEL_SHARD} model.safetensors.index.json config.json tokenizer.json)
add_custom_command(OUTPUT ${DEFAULT_MODEL}/${DEFAULT_MODEL_SHARD}.br
  COMMAND node ${PROJECT_SOURCE_DIR}/tools/compress_site.mjs ${DEFAULT_MODEL} ${DEFAULT_MODEL_TWINS}
  DEPENDS ${DEFAULT_MODEL}/config.json ${PROJECT_SOURCE_DIR}/tools/compress_site.mjs
  COMMENT "Compressing the default whole model (brotli, gzip)" VERBATIM)
add_custom_target(default_model ALL DEPENDS ${DEFAULT_MODEL}/config.json ${DEFAULT_MODEL}/answers.txt
                  ${DEFAULT_MODEL}/${DEFAULT_MODEL_SHARD}.br)
if(SWIGLU_WASM_DIR)
  # (the copy gives every file the time of copying, in no set order, and a twin older than its file
  # is not sent by tools/serve.mjs: the twins' times are set after it. The site's twins go first, so
  # one that compress_site.mjs no longer makes, as it does not pay, is not left behind)
  list(TRANSFORM DEFAULT_MODEL_TWINS PREPEND ${SWIGLU_WASM_DIR}/site/models/synthetic/ OUTPUT_VARIABLE site_br)
  set(site_gz ${site_br})
  list(TRANSFORM site_br APPEND .br)
  list(TRANSFORM site_gz APPEND .gz)
  add_custom_command(TARGET default_model POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E rm -f ${site_br} ${site_gz}
    COMMAND ${CMAKE_COMMAND} -E copy_directory ${DEFAULT_MODEL} ${SWIGLU_WASM_DIR}/site/models/synthetic
    COMMAND ${CMAKE_COMMAND} -E touch_nocreate ${site_br} ${site_gz}
    COMMENT "Copying the default whole model into the site" VERBATIM)
endif()

# [SECTION] benchmarks (tables, not tests; built with `all` so they keep compiling)
# The whole model's forward pass per weight format against the double reference (README).
add_executable(model_bench tools/bench/model_bench.cpp tests/model/forward_reference.cpp)
target_link_libraries(model_bench PRIVATE swiglu_native_io)
target_include_directories(model_bench PRIVATE tests ${SYS_LINK_DIR})
# What the page's own work costs per answer, and the bytes it fetches (docs/checkpoint.md).
add_executable(checkpoint_bench tools/checkpoint_bench.cpp)
target_link_libraries(checkpoint_bench PRIVATE swiglu_fetch_twin)
# The whole model's load on a simulated link: round trips against bytes / bandwidth (docs/model.md).
add_executable(ranges_bench tools/bench/ranges_bench.cpp)
target_link_libraries(ranges_bench PRIVATE swiglu_native_io)
# The tokenizer's load time and speed on a real vocabulary (README "Tokenizer").
add_executable(tokenizer_bench tools/bench/tokenizer_bench.cpp)
target_link_libraries(tokenizer_bench PRIVATE swiglu_tokenizer)
target_include_directories(tokenizer_bench PRIVATE tools)
