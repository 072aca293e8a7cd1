/** <b>Internal.</b> Fits the embedders' relevance calibrations ({@code engram bench calibrate}). */
package dev.engram.bench.calibration;
