/* libxperf-base: edit distance between two words, for "did you mean" suggestions. */
#ifndef XB_EDIT_DISTANCE_H
#define XB_EDIT_DISTANCE_H

/*
 * The optimal string alignment distance between a and b: insertions, deletions,
 * substitutions and transpositions of two adjacent characters each cost one, so "recrod"
 * is one edit from "record". Never more than the longer length, which is also the answer
 * when the work area cannot be allocated.
 */
unsigned int xb_edit_distance(const char *a, const char *b);

#endif
