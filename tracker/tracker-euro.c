#include "tracker-euro.h"

#include <math.h>

void
tracker_euro_reset(TrackerEuro *filter)
{
	filter->primed = FALSE;
	filter->value = 0.0;
	filter->speed = 0.0;
	filter->time_us = 0;
}

double
tracker_euro_alpha(double fc, double te)
{
	double tau = 1.0 / (2.0 * G_PI * fc);

	return 1.0 / (1.0 + tau / te);
}

double
tracker_euro_filter(TrackerEuro *filter, const TrackerEuroParams *params, double x, gint64 time_us)
{
	double te, dx, fc;

	if (!filter->primed || time_us <= filter->time_us) {
		filter->primed = TRUE;
		filter->value = x;
		filter->speed = 0.0;
		filter->time_us = time_us;
		return x;
	}
	te = (time_us - filter->time_us) / (double)G_USEC_PER_SEC;
	dx = (x - filter->value) / te;
	filter->speed += tracker_euro_alpha(params->d_cutoff, te) * (dx - filter->speed);
	fc = params->min_cutoff + params->beta * fabs(filter->speed);
	filter->value += tracker_euro_alpha(fc, te) * (x - filter->value);
	filter->time_us = time_us;
	return filter->value;
}
