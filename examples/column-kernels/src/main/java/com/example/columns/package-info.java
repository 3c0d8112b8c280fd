/**
 * Int64 column kernels on any device, built on Quiver's public API alone: {@link
 * com.example.columns.ColumnKernels} sums a column and filters it by a threshold where the column lives, with
 * OpenCL C kernels of its own on OpenCL devices. Columns passed in stay their callers'; results are new
 * arrays their callers own.
 */
package com.example.columns;
