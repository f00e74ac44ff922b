/*===- hidden.h - Forced into every agent source (-include) -----------------===*
 *
 * Every symbol of the agent, declared or defined, is hidden: references
 * within the object are then plain PC-relative, with no GOT and no PLT,
 * which is what a blob relocated into another process needs.
 *===----------------------------------------------------------------------===*/
#pragma GCC visibility push(hidden)
