# The pack commands run as a user would: the default pack's stats and per-token experiments,
# converting a Llama-named sharded F16 checkpoint, and bad arguments (exit 2) and bad files
# (exit 1), which must leave no pack behind.
# cmake -DCLI=swiglu -DMAKE_CKPT=make_checkpoint -DPACK=default-pack -DWORK=scratch-dir -P cli_packs_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_lib.cmake)

# [SECTION] the default pack
run(0 ${CLI} stats --pack ${PACK} --json)
expect_regex("^{\"layers\":\\[{\"layer\":0,\"open\":0\\.[0-9]+,\"negative\":0\\.[0-9]+},{\"layer\":11,.*{\"layer\":23," "${out}")
run(0 ${CLI} stats --pack ${PACK})
expect("SYNTHETIC" "${out}")
expect("silu(g) > 0.1" "${out}")
run(0 ${CLI} stats --pack ${PACK} --json --threshold 0)
run(0 ${CLI} permute --pack ${PACK} --layer 23)
expect("max |MLP(x[perm]) - MLP(x)[perm]| = 0 exactly" "${out}")
expect("perm [5,3,1,0,2,4]" "${out}")
run(0 ${CLI} permute --pack ${PACK} --layer 0 --perm 1,0,2,3,4,5 --token 4 --delta -2.5 --json)
expect("\"max_abs_diff\":0," "${out}")
expect_regex("\"change\":\\[0,0,0,0,[0-9.e-]+,0\\]" "${out}")
run(2 ${CLI} permute --pack ${PACK} --layer 5)
expect("not a layer of this pack" "${err}")
run(2 ${CLI} permute --pack ${PACK} --layer 0 --perm 0,1,2)
expect("exactly once" "${err}")
run(2 ${CLI} permute --pack ${PACK} --layer 0 --token 6)
run(2 ${CLI} stats --pack ${PACK} --threshold abc)
run(2 ${CLI} stats)
run(1 ${CLI} stats --pack ${WORK}/no-such-pack)
expect("manifest.json" "${err}")

# [SECTION] convert: a Llama-named, sharded F16 checkpoint, all layers, two probes
file(REMOVE_RECURSE ${WORK})
run(0 ${MAKE_CKPT} --out ${WORK}/llama --naming llama --hidden 96 --intermediate 256 --num-layers 3 --vocab 50
    --dtype f16 --shards 2)
run(0 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/pack --layers all --tokens 1,2,3 --label "one two three"
    --tokens 4,5,6,7)
expect("worst: model.layers." "${out}")
expect("[convert]" "${err}")
run(0 ${CLI} stats --pack ${WORK}/pack --json)
expect_regex("{\"layer\":2,\"open\":0\\.[0-9]+" "${out}")
# Converting again replaces the old pack in place.
run(0 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/pack --layers 1 --tokens 9)
run(0 ${CLI} stats --pack ${WORK}/pack --json)
expect_regex("^{\"layers\":\\[{\"layer\":1,[^]]*}\\]}" "${out}")

# [SECTION] bad arguments (2) and bad checkpoints (1); nothing half-written stays behind
run(2 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/bad --layers 3 --tokens 1)
expect("not a layer of this model" "${err}")
run(2 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/bad --tokens 1,x)
run(2 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/bad)
run(2 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/bad --tokens 1 --bogus)
run(1 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/bad --tokens 1,50)
expect("token id 50 is outside the vocabulary" "${err}")
file(REMOVE ${WORK}/llama/model-00002-of-00002.safetensors)
run(1 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/bad --tokens 1)
expect("missing shard" "${err}")
run(1 ${CLI} convert --checkpoint ${WORK}/nowhere --out ${WORK}/bad --tokens 1)
expect("config.json" "${err}")
file(GLOB leftovers ${WORK}/bad* ${WORK}/pack.*)
if(leftovers)
  message(FATAL_ERROR "a failed conversion left files behind: ${leftovers}")
endif()
# A directory that is not a pack is never replaced.
file(MAKE_DIRECTORY ${WORK}/notapack)
file(WRITE ${WORK}/notapack/precious.txt "keep me")
run(0 ${MAKE_CKPT} --out ${WORK}/llama --naming llama --hidden 96 --intermediate 256 --num-layers 3 --vocab 50)
run(1 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/notapack --tokens 1)
expect("not a pack" "${err}")
if(NOT EXISTS ${WORK}/notapack/precious.txt)
  message(FATAL_ERROR "convert replaced a directory that was not a pack")
endif()
run(2 ${CLI} convert --checkpoint ${WORK}/llama --out ${WORK}/bad --tokens 1,2 --pieces "one")
expect("has 1 pieces for 2 tokens" "${err}")
