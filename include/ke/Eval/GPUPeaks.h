//===- GPUPeaks.h - the GPU's roofline, measured once per device -*- C++ -*-===//

#ifndef KE_EVAL_GPUPEAKS_H
#define KE_EVAL_GPUPEAKS_H

#include "ke/Eval/Roofline.h"

namespace ke::eval {

/// The peaks of GPU 0 (ke::runtime::measureGPUPeaks), from the cache when
/// it holds this device's, else measured and cached. `recalibrate` measures
/// even when cached. Fails without a GPU or where the FMA peak cannot be
/// measured.
llvm::Expected<MachinePeaks> getOrCalibrateGPUPeaks(bool recalibrate = false);

} // namespace ke::eval

#endif // KE_EVAL_GPUPEAKS_H
