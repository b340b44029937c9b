// Scalar activations in double precision: the reference every figure on the page is drawn from.
// Lesson 001 (SiLU vs ReLU): silu(z) = z * sigmoid(z), minimum ~ -0.278 at z ~ -1.278.
#pragma once

double act_sigmoid(double z);  // 1 / (1 + e^-z), stable for any finite z
double act_silu(double z);     // z * sigmoid(z); keeps the sign of zero
double act_relu(double z);     // max(0, z)
double act_gelu(double z);     // exact GELU: z * Phi(z), Phi the standard normal CDF

// SiLU's single minimum. At the minimum sigmoid(z)(1 + z(1 - sigmoid(z))) = 0,
// which gives silu(z*) = z* + 1: the minimum value sits exactly one above its argument.
struct act_extremum { double z, value; };
act_extremum act_silu_minimum();
