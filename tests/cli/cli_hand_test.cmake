# The command-line tool, run as a user would: the lesson's numbers, edited weights, bad input.
# cmake -DCLI=path/to/swiglu -P cli_hand_test.cmake
include(${CMAKE_CURRENT_LIST_DIR}/cli_test_lib.cmake)

run(0 ${CLI} hand)
expect("u = W_up x   = [1.000000, 2.000000, 3.000000, -1.000000]" "${out}")
expect("g = silu(a)  = [-0.268941, 0.000000, 0.731059, 1.761594]" "${out}")
expect("z = u * g    = [-0.268941, 0.000000, 2.193176, -1.761594]" "${out}")
expect("y = W_down z = [1.924234, -1.761594]" "${out}")

run(0 ${CLI} hand --x 0,1 --steps)
expect("y = W_down z = [0.000000, -0.731059]" "${out}")
expect("u₂ = 0×0 + 1×1 = 1.000000" "${out}")

# lesson 002's exercise-style edit: gate everything from x1
run(0 ${CLI} hand --wg 1,0,1,0,1,0,1,0)
expect("a = W_gate x = [1.000000, 1.000000, 1.000000, 1.000000]" "${out}")

run(2 ${CLI} hand --x 1,two)
expect("'x'" "${err}")
run(2 ${CLI} hand --wu 1,2,3)
expect("'wu'" "${err}")
run(2 ${CLI} hand --bogus 1)
run(2 ${CLI} silu abc)
run(0 ${CLI} silu -1.278465)
expect("SiLU(z)    = -0.278465" "${out}")
run(0 ${CLI} budget)
expect("264,241,152" "${out}")
run(0 ${CLI} url "#v=1&view=hand&x=oops&step=1")
expect("notice: Link key 'x'" "${out}")
expect("u = [1.000000, 2.000000, 3.000000, -1.000000]" "${out}")
