# `swiglu forward` run as a teacher would, on the default whole model (make_checkpoint --whole
# planted: lesson 003's rules planted at toy width): the prompt through the model's own
# tokenizer.json, the capital-cities unit switched off, --json, bad arguments (exit 2), a missing
# or broken checkpoint and a prompt outside the vocabulary (exit 1, with the reason).
# cmake -DCLI=path/to/swiglu -DMODEL=default/model/dir -DWORK=scratch/dir -P cli_forward_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_lib.cmake)

run(0 ${CLI} forward ${MODEL} --text "中国的首都是")
expect("prompt (4 tokens): '中国' '的' '首都' '是'" "${out}")
# The most likely next token is the capital, and the most active unit writes toward Chinese cities.
string(REGEX MATCH "next token after position 3\n  '([^']*)'" top "${out}")
expect("'北京'" "${top}")
expect("what each layer's MLP adds" "${out}")

# Switched off: every probability before and after, and P(北京) falls.
run(0 ${CLI} forward ${MODEL} --text "中国的首都是" --off 23:75 --top 3)
expect("(before -> with the units off)" "${out}")
string(REGEX MATCH "'北京' +([0-9.]+) % → ([0-9.]+) %" line "${out}")
if(NOT line)
  message(FATAL_ERROR "no before -> after line for 北京:\n${out}")
endif()
if(NOT CMAKE_MATCH_2 LESS CMAKE_MATCH_1)
  message(FATAL_ERROR "P(北京) did not fall with L23:75 off: ${line}")
endif()

run(0 ${CLI} forward ${MODEL} --ids 1,2,3 --json)
expect("\"prompt\":" "${out}")

# A picked unit over the prompt (the rule book's layer=, unit=), at another token, and the gate
# shares on the stream beside the lessons' shortcut (the gates view's in=stream).
run(0 ${CLI} forward ${MODEL} --text "中国的首都是" --position 1 --unit 23:75 --gates 0,11,23 --thr 0.2)
expect("most active MLP units at position 1" "${out}")
expect("unit L23:75 at each token: silu(gate), up, silu(gate)*up" "${out}")
expect("share of silu(gate) > 0.2 and < -0.2" "${out}")
string(REGEX MATCH "  layer  11 +[0-9.]+ % +[0-9.]+ % \\| +[0-9.]+ % +[0-9.]+ %" gates "${out}")
if(NOT gates)
  message(FATAL_ERROR "no stream | shortcut shares for layer 11:\n${out}")
endif()
run(2 ${CLI} forward ${MODEL} --ids 1 --unit 23)
run(2 ${CLI} forward ${MODEL} --ids 1 --gates x)

# bad arguments: exit 2
run(2 ${CLI} forward)
run(2 ${CLI} forward ${MODEL})
run(2 ${CLI} forward ${MODEL} --ids 1 --text "x")
run(2 ${CLI} forward ${MODEL} --ids 1,,2)
run(2 ${CLI} forward ${MODEL} --ids 1 --off 23)
expect("LAYER:UNIT" "${err}")
run(2 ${CLI} forward ${MODEL} --ids 1 --top 0)

# a prompt or a checkpoint the model cannot run: exit 1, with the reason
run(1 ${CLI} forward ${MODEL} --ids 1,999999)
expect("outside the vocabulary" "${err}")
run(1 ${CLI} forward ${WORK}/no-such-dir --ids 1)
expect("has no config.json" "${err}")
file(REMOVE_RECURSE ${WORK}/broken)
file(MAKE_DIRECTORY ${WORK}/broken)
file(COPY ${MODEL}/config.json ${MODEL}/tokenizer.json DESTINATION ${WORK}/broken)
file(WRITE ${WORK}/broken/model.safetensors "not a safetensors file")
run(1 ${CLI} forward ${WORK}/broken --ids 1)
# Weights that hold NaN: exit 1, naming the tensor (as the page does), not "did not finish loading".
file(REMOVE_RECURSE ${WORK}/nan)
file(COPY ${MODEL}/ DESTINATION ${WORK}/nan)
file(GLOB shard ${WORK}/nan/*.safetensors)
execute_process(COMMAND python3 -c "
import json, struct, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
n = struct.unpack('<Q', b[:8])[0]
h = json.loads(b[8:8 + n])
name = [k for k in h if k.endswith('layers.10.mlp.down_proj.weight')][0]
at = 8 + n + h[name]['data_offsets'][0]
b[at:at + 2] = b'\\xc0\\x7f'  # a bf16 NaN
open(p, 'wb').write(b)
" ${shard} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "could not write NaN into ${shard}")
endif()
run(1 ${CLI} forward ${WORK}/nan --ids 1,2)
expect("layers.10.mlp.down_proj.weight" "${err}")

# `swiglu answers`: the built-in model's precomputed answers as the build writes them (the class
# link's base64url text, one line), the same text again (deterministic), another link's question,
# and what it refuses: a view that asks the model nothing (exit 2), a broken checkpoint (exit 1).
run(0 ${CLI} answers ${MODEL})
string(STRIP "${out}" answers)
if(NOT answers MATCHES "^[A-Za-z0-9_-]+$")
  message(FATAL_ERROR "swiglu answers printed no base64url text:\n${out}")
endif()
file(READ ${MODEL}/answers.txt built)
string(STRIP "${built}" built)
if(NOT built STREQUAL answers)
  message(FATAL_ERROR "models/synthetic/answers.txt is not what swiglu answers prints now")
endif()
run(0 ${CLI} answers ${MODEL} "#v=1&view=rules&off=23:75&layer=23&unit=75")
string(STRIP "${out}" off)
if(off STREQUAL answers)
  message(FATAL_ERROR "another question gave the same answers")
endif()
run(2 ${CLI} answers)
run(2 ${CLI} answers ${MODEL} "#v=1&view=hand")
expect("not a link to the rule book" "${err}")
run(1 ${CLI} answers ${WORK}/broken)
