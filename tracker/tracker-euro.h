/* The One Euro filter (Casiez, Roussel and Vogel, CHI 2012): a low-pass
 * filter whose cutoff rises with speed, so a still joint stops jittering
 * and a moving one lags little.
 *
 *   alpha(fc, Te) = 1 / (1 + tau / Te),  tau = 1 / (2 pi fc)
 *   dx  = (x - previous output) / Te, low-passed at d_cutoff
 *   fc  = min_cutoff + beta * |dx|
 *   out = previous output + alpha(fc, Te) * (x - previous output)
 *
 * Time is given with every sample, in microseconds. */
#pragma once

#include <glib.h>

typedef struct {
	double min_cutoff; /* Hz */
	double beta;       /* Hz per (unit per second) */
	double d_cutoff;   /* Hz, for the speed estimate */
} TrackerEuroParams;

typedef struct {
	gboolean primed;
	double value; /* last output */
	double speed; /* last filtered derivative, units per second */
	gint64 time_us;
} TrackerEuro;

/** tracker_euro_reset: forgets the past; the next sample passes unfiltered. */
void tracker_euro_reset(TrackerEuro *filter);

/**
 * tracker_euro_filter:
 * Filters sample @x taken at @time_us and returns the output. A sample no
 * later than the previous one passes unfiltered and restarts the filter.
 */
double tracker_euro_filter(TrackerEuro *filter, const TrackerEuroParams *params, double x,
                           gint64 time_us);

/** tracker_euro_alpha: the smoothing factor for cutoff @fc over @te seconds. */
double tracker_euro_alpha(double fc, double te);
