// A class link with fewer answers, for a coarser QR code (see class_link_lighter.h).
#include "core/views/class_link_lighter.h"

#include "core/base/number_format.h"
#include "core/base/strings.h"
#include "core/link/url_state.h"
#include "core/views/model_view.h"

std::string class_answer_title(const carried_answer& a) {
  std::string views;
  const auto add_view = [&views](str_id name) { views += (views.empty() ? "" : tr(STR_MIRROR_SEP)) + std::string(tr(name)); };
  const unsigned parts = a.parts ? a.parts : class_answers_question_parts(a.question);  // not yet encoded: what it can serve
  if (parts & CLASS_PART_RULES) add_view(STR_VIEW_RULES);
  if (parts & CLASS_PART_FLOW) add_view(STR_VIEW_FLOW);
  if (parts & CLASS_PART_GATES) add_view(STR_VIEW_GATES);
  std::string out = views + tr(STR_MIRROR_COLON) + model_prompt_text(a.reply);
  const model_question& q = a.question;
  if (q.position >= 0 && size_t(q.position) < a.reply.prompt.size())
    out += tr(STR_MIRROR_SEP) + strf(tr(STR_ANSWER_AT_TOKEN), model_token_text(a.reply.prompt[size_t(q.position)]).c_str());
  if (!q.off.empty()) {
    std::string units;
    for (const unit_ref& u : q.off) units += (units.empty() ? "" : tr(STR_MIRROR_SEP)) + rules_unit_text(u);
    out += tr(STR_MIRROR_SEP) + strf(tr(STR_ANSWER_OFF), units.c_str());
  }
  if (q.unit.layer >= 0) out += tr(STR_MIRROR_SEP) + strf(tr(STR_ANSWER_PICKED), rules_unit_text(q.unit).c_str());
  return out;
}

// The address with these answers in place of the link's.
static std::string with_answers(const std::string& head, lab_state s, const class_answers& all, size_t keep) {
  class_answers some = all;
  some.answers.resize(keep);
  s.answers = class_answers_encode(some);
  return head + url_encode(s);
}

lighter_link class_link_lighter(const std::string& url, const std::function<bool(const std::string&)>& coarse_enough) {
  lighter_link out;
  const size_t hash = url.find('#');
  if (hash == std::string::npos) return out;
  const url_decoded d = url_decode(url.substr(hash));
  if (d.state.answers.empty()) return out;
  class_answers all;
  answers_refusal why;
  if (!class_answers_decode(d.state.answers, class_answers_context{d.state.model}, &all, &why) || all.answers.size() < 2)
    return out;
  const std::string head = url.substr(0, hash + 1);  // through the #
  // The most answers whose code is coarse enough, 1 … total - 1, by halves: a shorter link gives a
  // code as coarse or coarser, except where the encoder moves from level M to L (near 1 KB of
  // link, qr_code.h), where the search may keep one answer fewer than would fit.
  size_t lo = 1, hi = all.answers.size() - 1, best = 0;
  std::string best_link;
  while (lo <= hi) {
    const size_t mid = (lo + hi) / 2;
    const std::string link = with_answers(head, d.state, all, mid);
    if (coarse_enough(link)) best = mid, best_link = link, lo = mid + 1;
    else hi = mid - 1;
  }
  out.coarse_enough = best > 0;
  if (best == 0) best = 1, best_link = with_answers(head, d.state, all, 1);
  out.link = best_link, out.kept = best, out.total = all.answers.size();
  for (size_t i = best; i < all.answers.size(); ++i) out.left_out.push_back(class_answer_title(all.answers[i]));
  return out;
}

std::vector<std::string> class_link_lighter_lines(const lighter_link& l, bool shown, float px) {
  if (l.link.empty()) return {};
  const std::string kept = fmt_count(int64_t(l.kept)), total = fmt_count(int64_t(l.total));
  if (!shown) return {strf(tr(STR_QR_LIGHTER_OFFER), kept.c_str(), total.c_str(), fmt_sig3(px).c_str())};
  std::vector<std::string> lines = {strf(tr(STR_QR_LIGHTER_SHOWN), kept.c_str(), total.c_str())};
  for (size_t i = 0; i < l.left_out.size(); ++i)
    lines.push_back(strf(tr(STR_QR_LIGHTER_LEFT_OUT), fmt_count(int64_t(l.kept + i + 1)).c_str(), l.left_out[i].c_str()));
  return lines;
}

std::string class_link_lighter_button(const lighter_link& l, bool shown) {
  if (shown) return strf(tr(STR_QR_WHOLE_SHOW), fmt_count(int64_t(l.total)).c_str());
  return strf(tr(STR_QR_LIGHTER_SHOW), fmt_count(int64_t(l.kept)).c_str(), fmt_count(int64_t(l.total)).c_str());
}
