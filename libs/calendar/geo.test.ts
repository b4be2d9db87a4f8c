import { boundingBox, distanceKm, geofenceKm, venuesInBoxFilter } from './geo';

describe('distanceKm (haversine, R = 6371 km)', () => {
  it.each([
    [{ lat: 52.52, lng: 13.405 }, { lat: 48.8566, lng: 2.3522 }, 877.46],
    [{ lat: 40.7128, lng: -74.006 }, { lat: 40.75, lng: -73.99 }, 4.35],
    [{ lat: 0, lng: 179.9 }, { lat: 0, lng: -179.9 }, 22.24],
    [{ lat: 10, lng: 20 }, { lat: 10, lng: 20 }, 0],
  ])('%o to %o is %p km', (a, b, km) => {
    expect(distanceKm(a, b)).toBeCloseTo(km, 1);
  });
});

describe('geofenceKm', () => {
  it('reads the radius in its unit, a bad radius as the default 25', () => {
    expect(geofenceKm(25, 'miles')).toBeCloseTo(40.2336, 4);
    expect(geofenceKm(10, 'kilometers')).toBe(10);
    expect(geofenceKm('12.5', 'kilometers')).toBe(12.5);
    expect(geofenceKm(0, 'kilometers')).toBe(25);
    expect(geofenceKm('far', 'miles')).toBeCloseTo(40.2336, 4);
  });
});

describe('boundingBox', () => {
  it('holds the whole circle: every point on it lies inside the box', () => {
    const centre = { lat: 52.52, lng: 13.405 };
    const km = 40;
    const box = boundingBox(centre, km);
    expect(box.lng).toHaveLength(1);
    // Points at the fence's edge in 360 directions (the destination-point formula).
    const R = 6371;
    const d = km / R;
    const φ1 = (centre.lat * Math.PI) / 180;
    for (let bearing = 0; bearing < 360; bearing++) {
      const θ = (bearing * Math.PI) / 180;
      const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
      const λ2 = centre.lng + (Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2)) * 180) / Math.PI;
      const lat = (φ2 * 180) / Math.PI;
      expect(lat).toBeGreaterThanOrEqual(box.lat[0] - 1e-9);
      expect(lat).toBeLessThanOrEqual(box.lat[1] + 1e-9);
      expect(λ2).toBeGreaterThanOrEqual(box.lng[0][0] - 1e-9);
      expect(λ2).toBeLessThanOrEqual(box.lng[0][1] + 1e-9);
    }
  });

  it('splits at the antimeridian into two longitude ranges', () => {
    const box = boundingBox({ lat: 0, lng: 179.9 }, 50);
    expect(box.lng).toHaveLength(2);
    expect(box.lng[0][1]).toBe(180);
    expect(box.lng[1][0]).toBe(-180);
    // 50 km at the equator spans 0.4497° of longitude each way.
    expect(box.lng[1][1]).toBeCloseTo(-179.6503, 3);
    expect(box.lng[0][0]).toBeCloseTo(179.4503, 3);
    expect(venuesInBoxFilter({ lat: 0, lng: 179.9 }, 50)).toHaveProperty('$or');
  });

  it('takes every longitude when the fence reaches a pole', () => {
    expect(boundingBox({ lat: 89.9, lng: 0 }, 50).lng).toEqual([[-180, 180]]);
    expect(boundingBox({ lat: -89.9, lng: 0 }, 50).lat[0]).toBe(-90);
  });
});
