#include "problems/bpp3d/packing_picture.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "src/util/gnuplot.h"

namespace eie::bpp3d {

namespace {

// Colours of the placement order, first to last (viridis): boxes fall into as many
// bands, one plot element each (gnuplot's polygons take one colour per element).
constexpr std::array<const char*, 11> kOrderColours = {
    "#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c",
    "#22a884", "#44bf70", "#7ad151", "#bddf26", "#fde725"};

// The six faces of a placed box as polygons (blank line after each).
void write_faces(std::ostream& out, const Placement& p) {
  const int x0 = p.x, x1 = p.x + p.dx, y0 = p.y, y1 = p.y + p.dy, z0 = p.z, z1 = p.z + p.dz;
  const auto face = [&](std::array<std::array<int, 3>, 4> corners) {
    for (const auto& c : corners) out << c[0] << ' ' << c[1] << ' ' << c[2] << '\n';
    out << '\n';
  };
  face({{{x0, y0, z0}, {x1, y0, z0}, {x1, y1, z0}, {x0, y1, z0}}});  // bottom
  face({{{x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}}});  // top
  face({{{x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1}}});  // front
  face({{{x0, y1, z0}, {x1, y1, z0}, {x1, y1, z1}, {x0, y1, z1}}});  // back
  face({{{x0, y0, z0}, {x0, y1, z0}, {x0, y1, z1}, {x0, y0, z1}}});  // left
  face({{{x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}, {x1, y0, z1}}});  // right
}

}  // namespace

Picture packing_picture(const BppData& data, const std::vector<Placement>& placements,
                        const std::string& title) {
  const int L = data.length, W = data.width;
  const auto count = placements.size();
  const size_t bands = std::min(kOrderColours.size(), std::max<size_t>(count, 1));
  std::ostringstream faces;
  int64_t height = 0;
  std::vector<int64_t> tops(static_cast<size_t>(L) * W, 0);  // the height map, x-major
  for (size_t band = 0; band < bands; ++band) {
    if (band > 0) faces << '\n';  // two blank lines: the next band is the next index
    for (size_t i = band * count / bands; i < (band + 1) * count / bands; ++i) {
      const auto& p = placements[i];
      write_faces(faces, p);
      height = std::max<int64_t>(height, p.z + p.dz);
      for (int x = p.x; x < p.x + p.dx; ++x) {
        for (int y = p.y; y < p.y + p.dy; ++y) {
          auto& top = tops[static_cast<size_t>(x) * W + y];
          top = std::max<int64_t>(top, p.z + p.dz);
        }
      }
    }
  }
  // The map's colours span the top surface's relief: from its 5th percentile (a few
  // deep holes would wash out the rest) to its highest point.
  auto sorted = tops;
  std::sort(sorted.begin(), sorted.end());
  const int64_t lowest = sorted[sorted.size() / 20], highest = sorted.back();
  // A tall packing drawn to scale would be a thin tower: its height is then drawn
  // shorter (said in the panel's title).
  const bool to_scale = height <= 2 * std::max(L, W);
  std::ostringstream map;  // a matrix: one row per y, one column per x
  for (int y = 0; y < W; ++y) {
    for (int x = 0; x < L; ++x) map << (x ? " " : "") << tops[static_cast<size_t>(x) * W + y];
    map << '\n';
  }
  std::ostringstream script;
  script << "set termoption noenhanced\nset multiplot layout 1,2 title " << gnuplot_quote(title)
         << "\n"
         // Left: the boxes in 3D.
         << "set view 62, 32\nset view equal " << (to_scale ? "xyz" : "xy")
         << "\nset xyplane at 0\nunset key\nunset colorbox\n"
         << "set pm3d depthorder border lc rgb 'black' lw " << (count > 300 ? 0.3 : 0.8) << '\n'
         << "set xrange [0:" << L << "]\nset yrange [0:" << W << "]\nset zrange [0:"
         << std::max<int64_t>(height, 1) << "]\nset tics font ',8'\nset xlabel 'x'\n"
         << "set ylabel 'y'\nset title 'boxes, dark = placed first"
         << (to_scale ? "" : " (height not to scale)") << "'\nsplot ";
  for (size_t band = 0; band < bands; ++band) {
    script << (band ? ", " : "") << "$faces index " << band << " with polygons fs solid 1.0 fc rgb '"
           << kOrderColours[band] << "'";
  }
  script << "\n"
         // Right: the height map seen from above.
         << "unset view\nset size ratio -1\nset xrange [-0.5:" << L - 0.5 << "]\nset yrange [-0.5:"
         << W - 0.5 << "]\nset colorbox\nset cblabel 'height'\nset cbrange [" << lowest << ':'
         << std::max(highest, lowest + 1) << "]\n"
         << "set palette defined (0 '#f7fbff', 1 '#6baed6', 2 '#08306b')\n"
         << "set title 'top surface, from above'\nplot $heights matrix with image\n"
         << "unset multiplot\n";
  return {script.str(), {{"faces", faces.str()}, {"heights", map.str()}}, 1400, 700};
}

}  // namespace eie::bpp3d
